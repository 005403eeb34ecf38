;; wasmeter feature probe: wasi-poll. Prints "ok" when the call answers as WASI preview 1 says.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "ok\n")
  (func $check (result i32)
    ;; one relative clock subscription of 1 ms (userdata 7) comes back as one clock event
    (i64.store (i32.const 512) (i64.const 7))
    (i32.store8 (i32.const 520) (i32.const 0))
    (i32.store (i32.const 528) (i32.const 1))
    (i64.store (i32.const 536) (i64.const 1000000))
    (i64.store (i32.const 544) (i64.const 0))
    (i32.store16 (i32.const 552) (i32.const 0))
    (i32.and
      (i32.and
        (i32.eqz (call $poll (i32.const 512) (i32.const 640) (i32.const 1) (i32.const 700)))
        (i32.eq (i32.load (i32.const 700)) (i32.const 1)))
      (i32.and
        (i64.eq (i64.load (i32.const 640)) (i64.const 7))
        (i32.eqz (i32.or (i32.load16_u (i32.const 648)) (i32.load8_u (i32.const 650)))))))
  (func (export "_start")
    (if (call $check)
      (then
        (i32.store (i32.const 0) (i32.const 16))
        (i32.store (i32.const 4) (i32.const 3))
        (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))))
