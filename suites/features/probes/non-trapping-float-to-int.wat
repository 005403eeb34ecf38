;; wasmeter feature probe: non-trapping-float-to-int. Prints "ok" when the feature gives its known value.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "ok\n")

  (func $check (result i32)
    (i32.eq (i32.trunc_sat_f32_s (f32.const 1e10)) (i32.const 2147483647)))
  (func (export "_start")
    (if (call $check)
      (then
        (i32.store (i32.const 0) (i32.const 16))
        (i32.store (i32.const 4) (i32.const 3))
        (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))))
