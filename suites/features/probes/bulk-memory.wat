;; wasmeter feature probe: bulk-memory. Prints "ok" when the feature gives its known value.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "ok\n")

  (func $check (result i32)
    (memory.fill (i32.const 100) (i32.const 42) (i32.const 8))
    (memory.copy (i32.const 200) (i32.const 100) (i32.const 8))
    (i32.eq (i32.load8_u (i32.const 207)) (i32.const 42)))
  (func (export "_start")
    (if (call $check)
      (then
        (i32.store (i32.const 0) (i32.const 16))
        (i32.store (i32.const 4) (i32.const 3))
        (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))))
