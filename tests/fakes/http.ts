import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}
export interface FakeResponse {
  status?: number;
  json?: unknown;
  html?: string;
  text?: string;
  redirect?: string;
  type?: string;
}
export type FakeHandler = (req: FakeRequest) => Promise<FakeResponse> | FakeResponse;

export interface FakeServer {
  url: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

/** A tiny HTTP server on 127.0.0.1 for a third party's fake; every request is recorded. */
export async function startFake(port: number, handle: FakeHandler): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const r: FakeRequest = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    requests.push(r);
    // The fake SDKs call their own origin from the page (as the real ones do): allow it.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
    if (r.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    try {
      const out = await handle(r);
      if (out.redirect) {
        res.writeHead(out.status ?? 303, { Location: out.redirect }).end();
      } else if (out.html !== undefined) {
        res.writeHead(out.status ?? 200, { 'Content-Type': 'text/html; charset=utf-8' }).end(out.html);
      } else if (out.text !== undefined) {
        res.writeHead(out.status ?? 200, { 'Content-Type': out.type ?? 'text/plain' }).end(out.text);
      } else {
        res.writeHead(out.status ?? 200, { 'Content-Type': 'application/json' }).end(JSON.stringify(out.json ?? {}));
      }
    } catch (e) {
      res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: String(e) }));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Stripe's form encoding (`line_items[0][price_data][unit_amount]=…`) to a nested object. */
export function parseBracketForm(body: string): Record<string, any> {
  const root: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node = root;
    parts.forEach((p, i) => {
      if (i === parts.length - 1) node[p] = value;
      else node = node[p] ??= {};
    });
  }
  return root;
}

export const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
