;; The component model itself, no WASI: a component that instantiates a nested one and
;; exports the nested instance's wasi:cli/run, lifted from a core function whose result is
;; ok only when 2 + 3 = 5 (prints nothing; a wrong sum exits 1). Nothing calls across
;; components, so no engine's reentrance rule is in play.
(component
  (component $inner
    (core module $m
      (func $add (param i32 i32) (result i32)
        (i32.add (local.get 0) (local.get 1)))
      (func (export "run") (result i32)
        (if (result i32) (i32.eq (call $add (i32.const 2) (i32.const 3)) (i32.const 5))
          (then (i32.const 0))
          (else (i32.const 1)))))
    (core instance $i (instantiate $m))
    (func $run (result (result)) (canon lift (core func $i "run")))
    (instance $run_i (export "run" (func $run)))
    (export "wasi:cli/run@0.2.0" (instance $run_i)))
  (instance $inner_i (instantiate $inner))
  (export "wasi:cli/run@0.2.0" (instance $inner_i "wasi:cli/run@0.2.0")))
