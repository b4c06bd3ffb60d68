import net from 'node:net';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import routeConfig from '../../../app/routes';

/**
 * A generated corpus of malformed HTTP requests, sent over a raw socket (fetch refuses to send
 * most of them): bad percent-encoding, unknown methods, broken bodies, hostile but decodable
 * queries and route parameters, bad ranges, wrong content types — to every route app/routes.ts
 * declares (a new route joins the corpus by itself), anonymously and with each session given.
 */
export interface RawRequest {
  name: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** Every URL pattern app/routes.ts declares ('/admin/users/:userId', '/*'…), once each. */
export function routePatterns(entries: RouteConfigEntry[] = routeConfig, parent = ''): string[] {
  const out = new Set<string>();
  for (const e of entries) {
    const here = e.path === undefined ? parent : `${parent}/${e.path}`;
    if (e.index || e.path !== undefined) out.add(here || '/');
    for (const child of routePatterns(e.children ?? [], here)) out.add(child);
  }
  return [...out];
}

/** A pattern with each parameter (and splat) replaced by `value`. */
export const fill = (pattern: string, value: string) => pattern.replace(/:\w+\??|\*/g, value);

const BAD_ENCODINGS = ['%', '%E0%A4%A', '%ff', '%c0%af', '%%30', '%uD800'];
const ODD_METHODS = ['PROPFIND', 'TRACE', 'TRACK', 'MKCOL', 'FOO', 'CONNECT'];
const BROKEN_BODIES: { type: string; body: string | Buffer }[] = [
  // First: forms are rate-limited per address, and this one reaches the handlers (NUL characters).
  { type: 'application/x-www-form-urlencoded', body: 'firstName=Awa%00&lastName=D&email=awa%40example.org&message=Bonjour%00&name=%00&title=%00&intent=link' },
  { type: 'application/json', body: '{"amount": "20", "name": "Awa\\u0000", "email": "awa@example.org", "phone": "+221770000000"}' },
  { type: 'application/json', body: '{"amount": ' },
  { type: 'application/json', body: '{"amount": 1e309, "currency": "EUR"}' },
  { type: 'application/json', body: '[[[[[[[[[[' },
  { type: 'application/json', body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
  { type: 'application/x-www-form-urlencoded', body: 'email=%E0%A4%A&password=%' },
  { type: 'application/x-www-form-urlencoded', body: 'amount=1e309&frequency=once&method=stripe&intent=amount&gift=%00&year=-1' },
  { type: 'multipart/form-data; boundary=XYZ', body: '--XYZ\r\nContent-Disposition: form-data; name="email"\r\n\r\nabc' },
  { type: 'multipart/form-data', body: 'not multipart at all' },
  { type: 'text/xml', body: '<a>1</a>' },
];
/** Queries every handler must survive: decodable, so they reach loaders, but absurd. */
const HOSTILE_QUERIES = [
  `lng=xx&page=-1&year=1e309&d=${'9'.repeat(40)}`,
  'id=%00&d=%00&t=%00&q=%00&session_id=%00',
  `q=${'a'.repeat(4000)}&t=${'b'.repeat(300)}`,
  'year=2024&year=abc&format=json&format=csv&ok=sent&ok=amount',
  'd=..%2F..%2Fetc%2Fpasswd&session_id=cs_%27%22%3C%3E&redirectTo=%2F%2Fevil.example',
  `tx_ref=thv-${'0'.repeat(24)}&transaction_id=99999999999999999999&status=cancelled`,
  'apercu=1.x&campagne=%F0%9F%92%A9&m=%3Cscript%3E',
  'page=NaN&sort=%22%3B--&amount=1%2C5e400',
];
/** Route parameters every handler must survive. */
const HOSTILE_PARAMS = ['%00', 'a'.repeat(3000), '..%2F..%2Fetc%2Fpasswd', '1e309', '%F0%9F%92%A9', '-1', 'x%20y%3Cz%3E'];

/** The n-th item of a list, cycling: each route gets a few of each kind, every kind is sent many times. */
const pick = <T>(list: readonly T[], n: number, count: number): T[] => Array.from({ length: Math.min(count, list.length) }, (_, i) => list[(n + i) % list.length]);

export interface Session {
  name: string;
  /** The Cookie header the requests of this variant carry. */
  cookie?: string;
  /** Paths never posted to with this session (its own sign-out). */
  keep?: string[];
}

/**
 * For each route and session: malformed paths and queries, odd methods, hostile queries and
 * parameters, and every broken body; the anonymous variant gets every encoding and method. Plus
 * unsatisfiable ranges on static files and pages.
 */
export function generateCorpus(sessions: Session[] = [{ name: 'anonymous' }], patterns = routePatterns()): RawRequest[] {
  const corpus: RawRequest[] = [];
  patterns.forEach((pattern, n) => {
    const path = fill(pattern, 'x1');
    for (const session of sessions) {
      const headers: Record<string, string> = session.cookie ? { Cookie: session.cookie } : {};
      const add = (name: string, method: string, target: string, extra: Record<string, string> = {}, body?: Buffer) =>
        corpus.push({ name: `${session.name}: ${name}`, method, target, headers: { ...headers, ...extra }, body });
      const full = !session.cookie;
      for (const bad of full ? BAD_ENCODINGS : pick(BAD_ENCODINGS, n, 2)) {
        add(`bad path ${path}/${bad}`, 'GET', `${path.replace(/\/$/, '')}/${bad}`);
        add(`bad query ${path}?q=${bad}`, 'GET', `${path}?q=${bad}&lng=${bad}`);
      }
      for (const method of full ? ODD_METHODS : pick(ODD_METHODS, n, 2)) add(`${method} ${path}`, method, method === 'CONNECT' ? 'localhost:80' : path);
      for (const query of pick(HOSTILE_QUERIES, n, 2)) add(`hostile query ${path}?${query.slice(0, 60)}`, 'GET', `${path}?${query}`);
      if (pattern !== path) for (const value of pick(HOSTILE_PARAMS, n, 3)) add(`hostile parameter ${fill(pattern, value).slice(0, 80)}`, 'GET', fill(pattern, value));
      if (session.keep?.includes(path)) continue;
      for (const { type, body } of BROKEN_BODIES) add(`POST ${path} ${type}`, 'POST', path, { 'Content-Type': type }, Buffer.from(body));
    }
  });
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

/** Sends every request, `parallel` at a time, and returns the answers in the corpus's order. */
export async function sendAllRaw(port: number, corpus: RawRequest[], parallel = 8): Promise<RawResponse[]> {
  const answers: RawResponse[] = new Array(corpus.length);
  let next = 0;
  const worker = async () => {
    while (next < corpus.length) {
      const i = next++;
      answers[i] = await sendRaw(port, corpus[i]);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return answers;
}
