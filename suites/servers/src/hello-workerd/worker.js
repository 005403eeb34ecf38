// worker.js - the `servers` suite's app as a workerd (Cloudflare Workers) module worker:
// GET / answers "hello, world\n" (text/plain) and anything else 404 "not found\n", the same
// bytes and headers as ../hello.js. workerd owns the socket and the process (config.capnp);
// the worker only answers requests.
const HELLO = 'hello, world\n';
const NOT_FOUND = 'not found\n';

export default {
  fetch(request) {
    const ok = request.method === 'GET' && new URL(request.url).pathname === '/';
    return new Response(ok ? HELLO : NOT_FOUND, {
      status: ok ? 200 : 404,
      headers: { 'Content-Type': 'text/plain' },
    });
  },
};
