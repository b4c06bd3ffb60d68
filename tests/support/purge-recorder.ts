import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A purge request as a CDN's API received it. */
export interface ReceivedPurge {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A CDN's purge API played by a local HTTP server (port 0): it records every request, and answers
 * as `answer` says (200 by default; a status; or 'hang', never answering).
 */
export async function startPurgeRecorder(): Promise<{
  origin: string;
  received: ReceivedPurge[];
  answer: number | 'hang';
  /** The keys of every `{keys}`-shaped body received so far (`{"tags":[…]}`), in order. */
  tags(): string[][];
  close(): Promise<void>;
}> {
  const received: ReceivedPurge[] = [];
  const state = { answer: 200 as number | 'hang' };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (state.answer === 'hang') return;
      res.writeHead(state.answer, { 'Content-Type': 'application/json' }).end('{"success":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    get answer() {
      return state.answer;
    },
    set answer(a) {
      state.answer = a;
    },
    tags: () => received.map((r) => (JSON.parse(r.body) as { tags: string[] }).tags),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
