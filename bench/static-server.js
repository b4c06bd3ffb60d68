// The references: a plain Node static file server for one file, gzip-encoded once, in its own
// process. With a third argument it first spends that many milliseconds of synchronous CPU on each
// request, one request per event-loop turn in the order they arrived, as the app's renders do
// (server/turns.ts): set to the rendered home page's time, its p99 under the same load is the
// latency floor of any Node server that costs that much per request (bench/run.js, README
// "Benchmarks").
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';

const [file, port, ms = '0'] = process.argv.slice(2);
const gz = zlib.gzipSync(fs.readFileSync(file));
const busy = Number(ms);

function answer(res) {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': gz.length });
  res.end(gz);
}

/**
 * Busy requests waiting for their turn, served as the app's renders are (server/turns.ts): one per
 * setImmediate, i.e. per loop turn; the turn after an accepted connection goes to the next
 * connection (at most 64 in a row); a request whose client left is dropped, not served.
 */
const queue = [];
let scheduled = false;
let accepted = false;
let acceptTurns = 0;
function schedule() {
  if (scheduled) return;
  scheduled = true;
  setImmediate(serveOne);
}
function serveOne() {
  scheduled = false;
  if (accepted && acceptTurns < 64 && queue.length < 256) {
    accepted = false;
    acceptTurns += 1;
    return schedule();
  }
  accepted = false;
  acceptTurns = 0;
  let res = queue.shift();
  while (res && (res.socket?.destroyed || res.socket?.readableEnded)) res = queue.shift();
  if (queue.length > 0) schedule();
  if (!res) return;
  const until = performance.now() + busy;
  while (performance.now() < until);
  answer(res);
}

const server = http.createServer((req, res) => {
  if (busy === 0) return answer(res);
  queue.push(res);
  schedule();
});
server.on('connection', () => {
  accepted = true;
});
server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
