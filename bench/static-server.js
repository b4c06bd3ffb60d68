// The reference: a plain Node static file server for one file, gzip-encoded once, in its own process.
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';

const [file, port] = process.argv.slice(2);
const gz = zlib.gzipSync(fs.readFileSync(file));
http
  .createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': gz.length });
    res.end(gz);
  })
  .listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
