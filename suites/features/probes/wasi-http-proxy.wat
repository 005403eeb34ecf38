;; wasmeter feature probe: wasi-http-proxy. A component of the wasi:http/proxy world (it exports
;; wasi:http/incoming-handler@0.2.12) that answers every request with 200 and the body "ok\n".
;; A runtime passes when it serves it one GET /: embedded wasmtime through wasmtime-wasi-http,
;; the wasmtime CLI as `wasmtime serve` (wasmeter turns a `wasmtime run` line into one).
;; The core module $main below was written by hand; the rest is what wasm-tools 1.262 made of it:
;;   wasm-tools component embed WIT --world probe main.wat | wasm-tools component new |
;;   wasm-tools strip -d producers | wasm-tools print
;; with suites/gateway/wit/deps (wasi 0.2.12) and a world `probe` that imports
;; wasi:http/types and wasi:io/streams and exports wasi:http/incoming-handler.
(component
  (type $ty-wasi:io/error@0.2.12 (;0;)
    (instance
      (export (;0;) "error" (type (sub resource)))
    )
  )
  (import "wasi:io/error@0.2.12" (instance $wasi:io/error@0.2.12 (;0;) (type $ty-wasi:io/error@0.2.12)))
  (alias export $wasi:io/error@0.2.12 "error" (type $error (;1;)))
  (type $ty-wasi:io/streams@0.2.12 (;2;)
    (instance
      (export (;0;) "output-stream" (type (sub resource)))
      (alias outer 1 $error (type (;1;)))
      (export (;2;) "error" (type (eq 1)))
      (type (;3;) (own 2))
      (type (;4;) (variant (case "last-operation-failed" 3) (case "closed")))
      (export (;5;) "stream-error" (type (eq 4)))
      (type (;6;) (borrow 0))
      (type (;7;) (list u8))
      (type (;8;) (result (error 5)))
      (type (;9;) (func (param "self" 6) (param "contents" 7) (result 8)))
      (export (;0;) "[method]output-stream.blocking-write-and-flush" (func (type 9)))
    )
  )
  (import "wasi:io/streams@0.2.12" (instance $wasi:io/streams@0.2.12 (;1;) (type $ty-wasi:io/streams@0.2.12)))
  (alias export $wasi:io/streams@0.2.12 "output-stream" (type $output-stream (;3;)))
  (type $ty-wasi:http/types@0.2.12 (;4;)
    (instance
      (export (;0;) "fields" (type (sub resource)))
      (export (;1;) "headers" (type (eq 0)))
      (export (;2;) "outgoing-response" (type (sub resource)))
      (export (;3;) "outgoing-body" (type (sub resource)))
      (alias outer 1 $output-stream (type (;4;)))
      (export (;5;) "output-stream" (type (eq 4)))
      (export (;6;) "trailers" (type (eq 0)))
      (type (;7;) (option string))
      (type (;8;) (option u16))
      (type (;9;) (record (field "rcode" 7) (field "info-code" 8)))
      (export (;10;) "DNS-error-payload" (type (eq 9)))
      (type (;11;) (option u8))
      (type (;12;) (record (field "alert-id" 11) (field "alert-message" 7)))
      (export (;13;) "TLS-alert-received-payload" (type (eq 12)))
      (type (;14;) (option u32))
      (type (;15;) (record (field "field-name" 7) (field "field-size" 14)))
      (export (;16;) "field-size-payload" (type (eq 15)))
      (type (;17;) (option u64))
      (type (;18;) (option 16))
      (type (;19;) (variant (case "DNS-timeout") (case "DNS-error" 10) (case "destination-not-found") (case "destination-unavailable") (case "destination-IP-prohibited") (case "destination-IP-unroutable") (case "connection-refused") (case "connection-terminated") (case "connection-timeout") (case "connection-read-timeout") (case "connection-write-timeout") (case "connection-limit-reached") (case "TLS-protocol-error") (case "TLS-certificate-error") (case "TLS-alert-received" 13) (case "HTTP-request-denied") (case "HTTP-request-length-required") (case "HTTP-request-body-size" 17) (case "HTTP-request-method-invalid") (case "HTTP-request-URI-invalid") (case "HTTP-request-URI-too-long") (case "HTTP-request-header-section-size" 14) (case "HTTP-request-header-size" 18) (case "HTTP-request-trailer-section-size" 14) (case "HTTP-request-trailer-size" 16) (case "HTTP-response-incomplete") (case "HTTP-response-header-section-size" 14) (case "HTTP-response-header-size" 16) (case "HTTP-response-body-size" 17) (case "HTTP-response-trailer-section-size" 14) (case "HTTP-response-trailer-size" 16) (case "HTTP-response-transfer-coding" 7) (case "HTTP-response-content-coding" 7) (case "HTTP-response-timeout") (case "HTTP-upgrade-failed") (case "HTTP-protocol-error") (case "loop-detected") (case "configuration-error") (case "internal-error" 7)))
      (export (;20;) "error-code" (type (eq 19)))
      (export (;21;) "response-outparam" (type (sub resource)))
      (export (;22;) "incoming-request" (type (sub resource)))
      (type (;23;) (own 0))
      (type (;24;) (func (result 23)))
      (export (;0;) "[constructor]fields" (func (type 24)))
      (type (;25;) (own 21))
      (type (;26;) (own 2))
      (type (;27;) (result 26 (error 20)))
      (type (;28;) (func (param "param" 25) (param "response" 27)))
      (export (;1;) "[static]response-outparam.set" (func (type 28)))
      (type (;29;) (own 1))
      (type (;30;) (func (param "headers" 29) (result 26)))
      (export (;2;) "[constructor]outgoing-response" (func (type 30)))
      (type (;31;) (borrow 2))
      (type (;32;) (own 3))
      (type (;33;) (result 32))
      (type (;34;) (func (param "self" 31) (result 33)))
      (export (;3;) "[method]outgoing-response.body" (func (type 34)))
      (type (;35;) (borrow 3))
      (type (;36;) (own 5))
      (type (;37;) (result 36))
      (type (;38;) (func (param "self" 35) (result 37)))
      (export (;4;) "[method]outgoing-body.write" (func (type 38)))
      (type (;39;) (own 6))
      (type (;40;) (option 39))
      (type (;41;) (result (error 20)))
      (type (;42;) (func (param "this" 32) (param "trailers" 40) (result 41)))
      (export (;5;) "[static]outgoing-body.finish" (func (type 42)))
    )
  )
  (import "wasi:http/types@0.2.12" (instance $wasi:http/types@0.2.12 (;2;) (type $ty-wasi:http/types@0.2.12)))
  (core module $main (;0;)
    (type (;0;) (func (result i32)))
    (type (;1;) (func (param i32) (result i32)))
    (type (;2;) (func (param i32 i32)))
    (type (;3;) (func (param i32 i32 i32 i32)))
    (type (;4;) (func (param i32 i32 i32 i32 i64 i32 i32 i32 i32)))
    (type (;5;) (func (param i32)))
    (type (;6;) (func (param i32 i32 i32 i32) (result i32)))
    (import "wasi:http/types@0.2.12" "[constructor]fields" (func $fields (;0;) (type 0) (result i32)))
    (import "wasi:http/types@0.2.12" "[constructor]outgoing-response" (func $response (;1;) (type 1) (param i32) (result i32)))
    (import "wasi:http/types@0.2.12" "[method]outgoing-response.body" (func $body (;2;) (type 2) (param i32 i32)))
    (import "wasi:http/types@0.2.12" "[method]outgoing-body.write" (func $write (;3;) (type 2) (param i32 i32)))
    (import "wasi:http/types@0.2.12" "[static]outgoing-body.finish" (func $finish (;4;) (type 3) (param i32 i32 i32 i32)))
    (import "wasi:http/types@0.2.12" "[static]response-outparam.set" (func $set (;5;) (type 4) (param i32 i32 i32 i32 i64 i32 i32 i32 i32)))
    (import "wasi:http/types@0.2.12" "[resource-drop]incoming-request" (func $drop_request (;6;) (type 5) (param i32)))
    (import "wasi:io/streams@0.2.12" "[method]output-stream.blocking-write-and-flush" (func $flush (;7;) (type 3) (param i32 i32 i32 i32)))
    (import "wasi:io/streams@0.2.12" "[resource-drop]output-stream" (func $drop_stream (;8;) (type 5) (param i32)))
    (memory (;0;) 1)
    (export "memory" (memory 0))
    (export "cabi_realloc" (func 9))
    (export "wasi:http/incoming-handler@0.2.12#handle" (func 10))
    (func (;9;) (type 6) (param i32 i32 i32 i32) (result i32)
      unreachable
    )
    (func (;10;) (type 2) (param $request i32) (param $out i32)
      (local $response i32) (local $body i32) (local $stream i32)
      local.get $request
      call $drop_request
      call $fields
      call $response
      local.set $response
      local.get $response
      i32.const 32
      call $body
      i32.const 32
      i32.load8_u
      if ;; label = @1
        unreachable
      end
      i32.const 36
      i32.load
      local.set $body
      local.get $out
      i32.const 0
      local.get $response
      i32.const 0
      i64.const 0
      i32.const 0
      i32.const 0
      i32.const 0
      i32.const 0
      call $set
      local.get $body
      i32.const 32
      call $write
      i32.const 32
      i32.load8_u
      if ;; label = @1
        unreachable
      end
      i32.const 36
      i32.load
      local.set $stream
      local.get $stream
      i32.const 16
      i32.const 3
      i32.const 48
      call $flush
      i32.const 48
      i32.load8_u
      if ;; label = @1
        unreachable
      end
      local.get $stream
      call $drop_stream
      local.get $body
      i32.const 0
      i32.const 0
      i32.const 48
      call $finish
      i32.const 48
      i32.load8_u
      if ;; label = @1
        unreachable
      end
    )
    (data (;0;) (i32.const 16) "ok\0a")
  )
  (core module $wit-component-shim-module (;1;)
    (type (;0;) (func (param i32 i32)))
    (type (;1;) (func (param i32 i32 i32 i32)))
    (type (;2;) (func (param i32 i32 i32 i32 i64 i32 i32 i32 i32)))
    (table (;0;) 5 5 funcref)
    (export "0" (func $"indirect-wasi:http/types@0.2.12-[method]outgoing-response.body"))
    (export "1" (func $"indirect-wasi:http/types@0.2.12-[method]outgoing-body.write"))
    (export "2" (func $"indirect-wasi:http/types@0.2.12-[static]outgoing-body.finish"))
    (export "3" (func $"indirect-wasi:http/types@0.2.12-[static]response-outparam.set"))
    (export "4" (func $"indirect-wasi:io/streams@0.2.12-[method]output-stream.blocking-write-and-flush"))
    (export "$imports" (table 0))
    (func $"indirect-wasi:http/types@0.2.12-[method]outgoing-response.body" (;0;) (type 0) (param i32 i32)
      local.get 0
      local.get 1
      i32.const 0
      call_indirect (type 0)
    )
    (func $"indirect-wasi:http/types@0.2.12-[method]outgoing-body.write" (;1;) (type 0) (param i32 i32)
      local.get 0
      local.get 1
      i32.const 1
      call_indirect (type 0)
    )
    (func $"indirect-wasi:http/types@0.2.12-[static]outgoing-body.finish" (;2;) (type 1) (param i32 i32 i32 i32)
      local.get 0
      local.get 1
      local.get 2
      local.get 3
      i32.const 2
      call_indirect (type 1)
    )
    (func $"indirect-wasi:http/types@0.2.12-[static]response-outparam.set" (;3;) (type 2) (param i32 i32 i32 i32 i64 i32 i32 i32 i32)
      local.get 0
      local.get 1
      local.get 2
      local.get 3
      local.get 4
      local.get 5
      local.get 6
      local.get 7
      local.get 8
      i32.const 3
      call_indirect (type 2)
    )
    (func $"indirect-wasi:io/streams@0.2.12-[method]output-stream.blocking-write-and-flush" (;4;) (type 1) (param i32 i32 i32 i32)
      local.get 0
      local.get 1
      local.get 2
      local.get 3
      i32.const 4
      call_indirect (type 1)
    )
  )
  (core instance $wit-component-shim-instance (;0;) (instantiate $wit-component-shim-module))
  (alias export $wasi:http/types@0.2.12 "incoming-request" (type $incoming-request (;5;)))
  (alias export $wasi:http/types@0.2.12 "response-outparam" (type $response-outparam (;6;)))
  (alias export $wasi:http/types@0.2.12 "[constructor]fields" (func $"[constructor]fields" (;0;)))
  (core func $"[constructor]fields" (;0;) (canon lower (func $"[constructor]fields")))
  (alias export $wasi:http/types@0.2.12 "[constructor]outgoing-response" (func $"[constructor]outgoing-response" (;1;)))
  (core func $"[constructor]outgoing-response" (;1;) (canon lower (func $"[constructor]outgoing-response")))
  (alias core export $wit-component-shim-instance "0" (core func $"indirect-wasi:http/types@0.2.12-[method]outgoing-response.body" (;2;)))
  (alias core export $wit-component-shim-instance "1" (core func $"indirect-wasi:http/types@0.2.12-[method]outgoing-body.write" (;3;)))
  (alias core export $wit-component-shim-instance "2" (core func $"indirect-wasi:http/types@0.2.12-[static]outgoing-body.finish" (;4;)))
  (alias core export $wit-component-shim-instance "3" (core func $"indirect-wasi:http/types@0.2.12-[static]response-outparam.set" (;5;)))
  (alias export $wasi:http/types@0.2.12 "incoming-request" (type $"#type7 incoming-request" (@name "incoming-request") (;7;)))
  (core func $resource.drop (;6;) (canon resource.drop $"#type7 incoming-request"))
  (core instance $wasi:http/types@0.2.12 (;1;)
    (export "[constructor]fields" (func $"[constructor]fields"))
    (export "[constructor]outgoing-response" (func $"[constructor]outgoing-response"))
    (export "[method]outgoing-response.body" (func $"indirect-wasi:http/types@0.2.12-[method]outgoing-response.body"))
    (export "[method]outgoing-body.write" (func $"indirect-wasi:http/types@0.2.12-[method]outgoing-body.write"))
    (export "[static]outgoing-body.finish" (func $"indirect-wasi:http/types@0.2.12-[static]outgoing-body.finish"))
    (export "[static]response-outparam.set" (func $"indirect-wasi:http/types@0.2.12-[static]response-outparam.set"))
    (export "[resource-drop]incoming-request" (func $resource.drop))
  )
  (alias core export $wit-component-shim-instance "4" (core func $"indirect-wasi:io/streams@0.2.12-[method]output-stream.blocking-write-and-flush" (;7;)))
  (alias export $wasi:io/streams@0.2.12 "output-stream" (type $"#type8 output-stream" (@name "output-stream") (;8;)))
  (core func $"#core-func8 resource.drop" (@name "resource.drop") (;8;) (canon resource.drop $"#type8 output-stream"))
  (core instance $wasi:io/streams@0.2.12 (;2;)
    (export "[method]output-stream.blocking-write-and-flush" (func $"indirect-wasi:io/streams@0.2.12-[method]output-stream.blocking-write-and-flush"))
    (export "[resource-drop]output-stream" (func $"#core-func8 resource.drop"))
  )
  (core instance $main (;3;) (instantiate $main
      (with "wasi:http/types@0.2.12" (instance $wasi:http/types@0.2.12))
      (with "wasi:io/streams@0.2.12" (instance $wasi:io/streams@0.2.12))
    )
  )
  (alias core export $main "memory" (core memory $memory (;0;)))
  (core module $wit-component-fixup (;2;)
    (type (;0;) (func (param i32 i32)))
    (type (;1;) (func (param i32 i32 i32 i32)))
    (type (;2;) (func (param i32 i32 i32 i32 i64 i32 i32 i32 i32)))
    (import "actual" "0" (func $0 (;0;) (type 0) (param i32 i32)))
    (import "actual" "1" (func $1 (;1;) (type 0) (param i32 i32)))
    (import "actual" "2" (func $2 (;2;) (type 1) (param i32 i32 i32 i32)))
    (import "actual" "3" (func $3 (;3;) (type 2) (param i32 i32 i32 i32 i64 i32 i32 i32 i32)))
    (import "actual" "4" (func $4 (;4;) (type 1) (param i32 i32 i32 i32)))
    (import "shim" "$imports" (table (;0;) 5 5 funcref))
    (elem (;0;) (i32.const 0) func $0 $1 $2 $3 $4)
  )
  (alias export $wasi:http/types@0.2.12 "[method]outgoing-response.body" (func $"[method]outgoing-response.body" (;2;)))
  (core func $"#core-func9 indirect-wasi:http/types@0.2.12-[method]outgoing-response.body" (@name "indirect-wasi:http/types@0.2.12-[method]outgoing-response.body") (;9;) (canon lower (func $"[method]outgoing-response.body") (memory $memory)))
  (alias export $wasi:http/types@0.2.12 "[method]outgoing-body.write" (func $"[method]outgoing-body.write" (;3;)))
  (core func $"#core-func10 indirect-wasi:http/types@0.2.12-[method]outgoing-body.write" (@name "indirect-wasi:http/types@0.2.12-[method]outgoing-body.write") (;10;) (canon lower (func $"[method]outgoing-body.write") (memory $memory)))
  (alias export $wasi:http/types@0.2.12 "[static]outgoing-body.finish" (func $"[static]outgoing-body.finish" (;4;)))
  (alias core export $main "cabi_realloc" (core func $cabi_realloc (;11;)))
  (core func $"#core-func12 indirect-wasi:http/types@0.2.12-[static]outgoing-body.finish" (@name "indirect-wasi:http/types@0.2.12-[static]outgoing-body.finish") (;12;) (canon lower (func $"[static]outgoing-body.finish") (memory $memory) (realloc $cabi_realloc) string-encoding=utf8))
  (alias export $wasi:http/types@0.2.12 "[static]response-outparam.set" (func $"[static]response-outparam.set" (;5;)))
  (core func $"#core-func13 indirect-wasi:http/types@0.2.12-[static]response-outparam.set" (@name "indirect-wasi:http/types@0.2.12-[static]response-outparam.set") (;13;) (canon lower (func $"[static]response-outparam.set") (memory $memory) string-encoding=utf8))
  (alias export $wasi:io/streams@0.2.12 "[method]output-stream.blocking-write-and-flush" (func $"[method]output-stream.blocking-write-and-flush" (;6;)))
  (core func $"#core-func14 indirect-wasi:io/streams@0.2.12-[method]output-stream.blocking-write-and-flush" (@name "indirect-wasi:io/streams@0.2.12-[method]output-stream.blocking-write-and-flush") (;14;) (canon lower (func $"[method]output-stream.blocking-write-and-flush") (memory $memory)))
  (core instance $actual (;4;)
    (export "0" (func $"#core-func9 indirect-wasi:http/types@0.2.12-[method]outgoing-response.body"))
    (export "1" (func $"#core-func10 indirect-wasi:http/types@0.2.12-[method]outgoing-body.write"))
    (export "2" (func $"#core-func12 indirect-wasi:http/types@0.2.12-[static]outgoing-body.finish"))
    (export "3" (func $"#core-func13 indirect-wasi:http/types@0.2.12-[static]response-outparam.set"))
    (export "4" (func $"#core-func14 indirect-wasi:io/streams@0.2.12-[method]output-stream.blocking-write-and-flush"))
  )
  (core instance $fixup (;5;) (instantiate $wit-component-fixup
      (with "actual" (instance $actual))
      (with "shim" (instance $wit-component-shim-instance))
    )
  )
  (type (;9;) (own $incoming-request))
  (type (;10;) (own $response-outparam))
  (type (;11;) (func (param "request" 9) (param "response-out" 10)))
  (alias core export $main "wasi:http/incoming-handler@0.2.12#handle" (core func $wasi:http/incoming-handler@0.2.12#handle (;15;)))
  (func $handle (;7;) (type 11) (canon lift (core func $wasi:http/incoming-handler@0.2.12#handle)))
  (component $wasi:http/incoming-handler@0.2.12-shim-component (;0;)
    (import "import-type-incoming-request" (type (;0;) (sub resource)))
    (import "import-type-response-outparam" (type (;1;) (sub resource)))
    (import "import-type-incoming-request0" (type (;2;) (eq 0)))
    (type (;3;) (own 2))
    (import "import-type-response-outparam0" (type (;4;) (eq 1)))
    (type (;5;) (own 4))
    (type (;6;) (func (param "request" 3) (param "response-out" 5)))
    (import "import-func-handle" (func (;0;) (type 6)))
    (export (;7;) "incoming-request" (type 0))
    (export (;8;) "response-outparam" (type 1))
    (type (;9;) (own 7))
    (type (;10;) (own 8))
    (type (;11;) (func (param "request" 9) (param "response-out" 10)))
    (export (;1;) "handle" (func 0) (func (type 11)))
  )
  (instance $wasi:http/incoming-handler@0.2.12-shim-instance (;3;) (instantiate $wasi:http/incoming-handler@0.2.12-shim-component
      (with "import-func-handle" (func $handle))
      (with "import-type-incoming-request" (type $incoming-request))
      (with "import-type-response-outparam" (type $response-outparam))
      (with "import-type-incoming-request0" (type $incoming-request))
      (with "import-type-response-outparam0" (type $response-outparam))
    )
  )
  (export $wasi:http/incoming-handler@0.2.12 (;4;) "wasi:http/incoming-handler@0.2.12" (instance $wasi:http/incoming-handler@0.2.12-shim-instance))
)
