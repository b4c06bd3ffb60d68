import net from 'node:net';

/**
 * A generated corpus of malformed HTTP requests, sent over a raw socket (fetch refuses to send
 * most of them): bad percent-encoding, unknown methods, broken bodies, absurd numbers, bad ranges,
 * wrong content types, across the public, admin, webhook and API routes.
 */
export interface RawRequest {
  name: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export const PUBLIC_PATHS = ['/', '/a-propos', '/blog', '/blog/1', '/contact', '/faire-un-don', '/devenir-membre', '/payment/success', '/sitemap.xml', '/robots.txt'];
export const ADMIN_PATHS = ['/admin/login', '/admin/mot-de-passe-oublie', '/admin/setup', '/admin/dashboard', '/admin/media/televerser', '/admin/users/new', '/admin/invitation/abc', '/admin/reinitialiser/abc'];
export const WEBHOOK_PATHS = ['/webhooks/stripe', '/webhooks/paypal', '/webhooks/coingate', '/webhooks/flutterwave'];
export const API_PATHS = ['/api/donations/paypal/orders', '/api/donations/paypal/orders/X1/capture', '/api/donations/mobile-money', '/api/donations/mobile-money/callback'];
const ALL = [...PUBLIC_PATHS, ...ADMIN_PATHS, ...WEBHOOK_PATHS, ...API_PATHS];
const POSTABLE = ['/contact', '/faire-un-don', '/devenir-membre', '/admin/login', '/admin/mot-de-passe-oublie', '/admin/media/televerser', ...WEBHOOK_PATHS, ...API_PATHS];

const BAD_ENCODINGS = ['%', '%E0%A4%A', '%ff', '%c0%af', '%%30', '%uD800'];
const ODD_METHODS = ['PROPFIND', 'TRACE', 'TRACK', 'MKCOL', 'FOO', 'CONNECT'];
const BROKEN_BODIES: { type: string; body: string | Buffer }[] = [
  { type: 'application/json', body: '{"amount": ' },
  { type: 'application/json', body: '{"amount": 1e309, "currency": "EUR"}' },
  { type: 'application/json', body: '[[[[[[[[[[' },
  { type: 'application/json', body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
  { type: 'application/x-www-form-urlencoded', body: 'email=%E0%A4%A&password=%' },
  { type: 'application/x-www-form-urlencoded', body: 'amount=1e309&frequency=once&method=stripe' },
  { type: 'multipart/form-data; boundary=XYZ', body: '--XYZ\r\nContent-Disposition: form-data; name="email"\r\n\r\nabc' },
  { type: 'multipart/form-data', body: 'not multipart at all' },
  { type: 'text/xml', body: '<a>1</a>' },
];

export function generateCorpus(): RawRequest[] {
  const corpus: RawRequest[] = [];
  for (const path of ALL) {
    for (const bad of BAD_ENCODINGS) {
      corpus.push({ name: `bad path ${path}/${bad}`, method: 'GET', target: `${path.replace(/\/$/, '')}/${bad}`, headers: {} });
      corpus.push({ name: `bad query ${path}?q=${bad}`, method: 'GET', target: `${path}?q=${bad}&lng=${bad}`, headers: {} });
    }
    for (const method of ODD_METHODS) corpus.push({ name: `${method} ${path}`, method, target: method === 'CONNECT' ? 'localhost:80' : path, headers: {} });
  }
  for (const path of POSTABLE) {
    for (const { type, body } of BROKEN_BODIES) {
      corpus.push({ name: `POST ${path} ${type}`, method: 'POST', target: path, headers: { 'Content-Type': type }, body: Buffer.from(body) });
    }
  }
  for (const range of ['bytes=999999999-', 'bytes=5-2', 'bytes=abc', 'lines=1-2']) {
    for (const path of ['/', '/favicon.ico', '/robots.txt', '/media/missing.webp']) corpus.push({ name: `Range ${range} ${path}`, method: 'GET', target: path, headers: { Range: range } });
  }
  return corpus;
}

export interface RawResponse {
  status: number;
  text: string;
}

/** Sends one request as raw bytes and reads the answer until the server closes or 5 s pass. */
export function sendRaw(port: number, r: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const headers = { Host: `127.0.0.1:${port}`, Connection: 'close', ...r.headers, ...(r.body ? { 'Content-Length': String(r.body.length) } : {}) };
    socket.on('connect', () => {
      const head = `${r.method} ${r.target} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
      socket.write(Buffer.concat([Buffer.from(head, 'latin1'), r.body ?? Buffer.alloc(0)]));
    });
    socket.setTimeout(5000, () => socket.destroy());
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, text });
    });
  });
}
