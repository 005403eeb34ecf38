;; wasmeter feature probe: wasi-clocks. Prints "ok" when the call answers as WASI preview 1 says.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock (param i32 i64 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "ok\n")
  (func $check (result i32)
    ;; realtime after 2017 and a monotonic clock that does not go back
    (i32.and
      (i32.and
        (i32.eqz (call $clock (i32.const 0) (i64.const 1) (i32.const 32)))
        (i64.gt_u (i64.load (i32.const 32)) (i64.const 1500000000000000000)))
      (i32.and
        (i32.and
          (i32.eqz (call $clock (i32.const 1) (i64.const 1) (i32.const 40)))
          (i32.eqz (call $clock (i32.const 1) (i64.const 1) (i32.const 48))))
        (i64.ge_u (i64.load (i32.const 48)) (i64.load (i32.const 40))))))
  (func (export "_start")
    (if (call $check)
      (then
        (i32.store (i32.const 0) (i32.const 16))
        (i32.store (i32.const 4) (i32.const 3))
        (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))))
