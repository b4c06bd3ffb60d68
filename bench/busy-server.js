// The latency floor of one Node process: a bare HTTP server that spends `ms` of synchronous CPU on
// each request, then answers one page, gzip-encoded once, in its own process. With `ms` set to the
// time the rendered home page takes, its p99 under the same load is what any Node server that
// costs that much per request gets (bench/run.js, README "Benchmarks").
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';

const [file, port, ms] = process.argv.slice(2);
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
