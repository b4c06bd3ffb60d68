// The references: a plain Node static file server for one file, gzip-encoded once, in its own
// process. With a third argument it first spends that many milliseconds of synchronous CPU on each
// request, one request per event-loop turn in the order they arrived, as the app's renders do
// (server/turns.ts): set to the rendered home page's time, its p99 under the same load is the
// latency floor of any Node server that costs that much per request (bench/run.js, docs/benchmarks.md).
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { acceptsFirst, hasLeft, nextTurn } from '../server/turns.ts';

const [file, port, ms = '0'] = process.argv.slice(2);
const gz = zlib.gzipSync(fs.readFileSync(file));
const busy = Number(ms);

function answer(res) {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': gz.length });
  res.end(gz);
}

// Busy requests take turns exactly as the app's renders do: the app's own module (Node runs its
// TypeScript as is, types stripped).
const server = http.createServer(async (req, res) => {
  if (busy === 0) return answer(res);
  if (!(await nextTurn(() => hasLeft(req.socket)))) return;
  const until = performance.now() + busy;
  while (performance.now() < until);
  answer(res);
});
acceptsFirst(server);
server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
