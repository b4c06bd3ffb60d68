// The references: a plain Node static file server for one file, gzip-encoded once, in its own
// process. With a third argument it first spends that many milliseconds of synchronous CPU on each
// request: set to the rendered home page's time, its p99 under the same load is the latency floor
// of any Node server that costs that much per request (bench/run.js, README "Benchmarks").
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';

const [file, port, ms = '0'] = process.argv.slice(2);
const gz = zlib.gzipSync(fs.readFileSync(file));
const busy = Number(ms);
http
  .createServer((req, res) => {
    const until = performance.now() + busy;
    while (performance.now() < until);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': gz.length });
    res.end(gz);
  })
  .listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
