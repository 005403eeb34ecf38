;; wasmeter feature probe: threads (shared memory and atomics). Its only memory is shared,
;; which WASI preview 1 does not print from, so it prints nothing: a wrong value traps. It is
;; exported as "memory", which JavaScript hosts' WASI asks for before it starts a module.
(module
  ;; imported, never called: WASI hosts (wasmer) tell a WASI module by its imports
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 1 1 shared)
  (func (export "_start")
    (drop (i32.atomic.rmw.add (i32.const 8) (i32.const 40)))
    (drop (i32.atomic.rmw.add (i32.const 8) (i32.const 2)))
    (if (i32.ne (i32.atomic.load (i32.const 8)) (i32.const 42))
      (then (unreachable)))))
