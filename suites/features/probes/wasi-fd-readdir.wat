;; wasmeter feature probe: wasi-fd-readdir. Prints "ok" when the call answers as WASI preview 1 says.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_readdir" (func $readdir (param i32 i32 i32 i64 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "ok\n")
  (func $check (result i32)
    ;; the first preopened folder (fd 3, the working folder) can be listed
    (i32.and
      (i32.eqz (call $readdir (i32.const 3) (i32.const 256) (i32.const 1024) (i64.const 0) (i32.const 40)))
      (i32.le_u (i32.load (i32.const 40)) (i32.const 1024))))
  (func (export "_start")
    (if (call $check)
      (then
        (i32.store (i32.const 0) (i32.const 16))
        (i32.store (i32.const 4) (i32.const 3))
        (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))))
