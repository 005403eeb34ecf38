// hello.js - the `servers` suite's app as a fetch-event handler, componentized into a
// wasi:http/proxy component that runs JavaScript on SpiderMonkey compiled to wasm
// (StarlingMonkey, by componentize-js: ./build.sh). GET / answers "hello, world\n"
// (text/plain) and anything else 404 "not found\n", the same bytes and headers as ../hello.js
// and ../hello-workerd/worker.js. The host (wasmtime serve, or wasmeter's embedded
// wasmtime-http) makes a fresh instance per request; the engine's start-up is pre-initialised
// into the component (Wizer), so a request does not boot SpiderMonkey.
const HELLO = 'hello, world\n';
const NOT_FOUND = 'not found\n';

addEventListener('fetch', (event) => {
  const request = event.request;
  const ok = request.method === 'GET' && new URL(request.url).pathname === '/';
  event.respondWith(
    new Response(ok ? HELLO : NOT_FOUND, {
      status: ok ? 200 : 404,
      headers: { 'Content-Type': 'text/plain' },
    }),
  );
});
