;; wasmeter feature probe: memory64. Its only memory has 64-bit addresses, which WASI
;; preview 1 does not print from, so it prints nothing: a wrong value traps. It is exported
;; as "memory", which JavaScript hosts' WASI asks for before it starts a module.
(module
  ;; imported, never called: WASI hosts (wasmer) tell a WASI module by its imports
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") i64 1)
  (func (export "_start")
    (i64.store (i64.const 0x8000) (i64.const 42))
    (if (i64.ne (i64.load (i64.const 0x8000)) (i64.const 42))
      (then (unreachable)))))
