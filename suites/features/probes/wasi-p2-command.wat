;; A WASI preview 2 command (the wasi:cli/command world, written by hand): run gets
;; stdout from wasi:cli/stdout and writes "ok\n" with blocking-write-and-flush, lowered
;; with the canonical ABI into the core module.
(component
  (import "wasi:io/error@0.2.0" (instance $error
    (export "error" (type (sub resource)))))
  (alias export $error "error" (type $error-t))
  (import "wasi:io/streams@0.2.0" (instance $streams
    (alias outer 1 $error-t (type $e))
    (export "error" (type $err (eq $e)))
    (export "output-stream" (type $os (sub resource)))
    (type $stream-error (variant (case "last-operation-failed" (own $err)) (case "closed")))
    (export "stream-error" (type $se (eq $stream-error)))
    (export "[method]output-stream.blocking-write-and-flush"
      (func (param "self" (borrow $os)) (param "contents" (list u8)) (result (result (error $se)))))))
  (alias export $streams "output-stream" (type $os))
  (import "wasi:cli/stdout@0.2.0" (instance $stdout
    (alias outer 1 $os (type $os2))
    (export "output-stream" (type $o (eq $os2)))
    (export "get-stdout" (func (result (own $o))))))
  (core module $mem (memory (export "memory") 1))
  (core instance $mem_i (instantiate $mem))
  (alias core export $mem_i "memory" (core memory $memory))
  (core func $get_stdout (canon lower (func $stdout "get-stdout")))
  (core func $write (canon lower (func $streams "[method]output-stream.blocking-write-and-flush") (memory $memory)))
  (core module $m
    (import "mem" "memory" (memory 1))
    (import "wasi" "get-stdout" (func $gs (result i32)))
    (import "wasi" "write" (func $w (param i32 i32 i32 i32)))
    (data (i32.const 16) "ok\n")
    (func (export "run") (result i32)
      (call $w (call $gs) (i32.const 16) (i32.const 3) (i32.const 32))
      (i32.const 0)))
  (core instance $i (instantiate $m
    (with "mem" (instance $mem_i))
    (with "wasi" (instance (export "get-stdout" (func $get_stdout)) (export "write" (func $write))))))
  (func $run (result (result)) (canon lift (core func $i "run")))
  (instance $run_i (export "run" (func $run)))
  (export "wasi:cli/run@0.2.0" (instance $run_i)))
