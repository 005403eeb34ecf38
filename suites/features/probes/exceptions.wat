;; wasmeter feature probe: exceptions. Prints "ok" when the feature gives its known value.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "ok\n")
  (tag $e (param i32))
  (func $caught (result i32)
    (block $h (result i32 exnref)
      (try_table (catch_ref $e $h) (throw $e (i32.const 42)))
      (unreachable))
    (drop))
  (func $check (result i32)
    (i32.eq (call $caught) (i32.const 42)))
  (func (export "_start")
    (if (call $check)
      (then
        (i32.store (i32.const 0) (i32.const 16))
        (i32.store (i32.const 4) (i32.const 3))
        (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))))
