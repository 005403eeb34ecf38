// hello.js - the `servers` suite's JS server: node:http on 127.0.0.1:$PORT, answering
// GET / with "hello, world\n" (text/plain) and anything else with 404. Runs unchanged on
// node and bun. Exits 0 at once on SIGTERM or SIGINT (open keep-alive connections would
// otherwise hold server.close() up).
'use strict';
const http = require('node:http');

const port = Number.parseInt(process.env.PORT ?? '', 10);
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error(`hello.js: PORT must be a TCP port, got '${process.env.PORT ?? ''}'`);
  process.exit(2);
}

const HELLO = Buffer.from('hello, world\n');
const NOT_FOUND = Buffer.from('not found\n');

const server = http.createServer((req, res) => {
  const ok = req.method === 'GET' && req.url === '/';
  const body = ok ? HELLO : NOT_FOUND;
  res.writeHead(ok ? 200 : 404, {
    'Content-Type': 'text/plain',
    'Content-Length': body.length,
  });
  res.end(body);
});

server.listen(port, '127.0.0.1', () => {
  console.error(`hello.js: listening on http://127.0.0.1:${port}/`);
});

for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => process.exit(0));
}
