;; wasmeter feature probe: wasi-random. Prints "ok" when the call answers as WASI preview 1 says.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func $random (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "ok\n")
  (func $check (result i32)
    ;; 16 random bytes that are not all zero
    (i32.and
      (i32.eqz (call $random (i32.const 64) (i32.const 16)))
      (i64.ne (i64.or (i64.load (i32.const 64)) (i64.load (i32.const 72))) (i64.const 0))))
  (func (export "_start")
    (if (call $check)
      (then
        (i32.store (i32.const 0) (i32.const 16))
        (i32.store (i32.const 4) (i32.const 3))
        (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))))
