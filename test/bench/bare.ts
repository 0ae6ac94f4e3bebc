// The baseline of every row: a bare node:http server, started on the same runtime and with the
// same flags as the service, that drains the request body and answers `GET|POST /<n>` with a
// JSON body of exactly n bytes. It prints the same "Listening on" line, so cold start compares
// like with like.
//
//   node --experimental-strip-types test/bench/bare.ts     (or: tsx test/bench/bare.ts)

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const bodies = new Map<number, Buffer>();

function bodyOf(size: number): Buffer {
  let body = bodies.get(size);
  if (body === undefined) {
    // A JSON string literal of the requested length: `"xxx…"`.
    body = Buffer.from(`"${'x'.repeat(Math.max(0, size - 2))}"`.slice(0, size), 'latin1');
    bodies.set(size, body);
  }
  return body;
}

const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
  const size = Number((req.url ?? '/').slice(1)) || 0;
  req.resume();
  req.on('end', () => {
    const body = bodyOf(size);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': body.length });
    res.end(body);
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`Listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
