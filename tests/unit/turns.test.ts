import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nextTurn, waitingForTurn } from '../../server/turns';

// Requests that render take turns (server/turns.ts, ADR 017): under load a new visitor's connection
// is accepted within one render, not after every render already waiting.

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

let server: http.Server | undefined;
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server!.close(r));
    server = undefined;
  }
});

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
    sockets.push(s);
  });
}

describe('turns', () => {
  it('starts waiting requests one at a time, first come, first served', async () => {
    const started: number[] = [];
    const all = [0, 1, 2, 3, 4].map(async (i) => {
      await nextTurn();
      started.push(i);
      expect(waitingForTurn()).toBe(4 - i);
    });
    expect(waitingForTurn()).toBe(5);
    await Promise.all(all);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(waitingForTurn()).toBe(0);
  });

  it('accepts new connections while earlier requests wait for their turn', async () => {
    const events: string[] = [];
    let accepted = 0;
    server = http.createServer(async (req, res) => {
      await nextTurn();
      busy(20); // a render
      events.push(`answered ${req.url}`);
      res.end('ok');
    });
    server.on('connection', () => {
      accepted += 1;
      if (accepted > 10) events.push('accepted a new visitor');
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server!.once('listening', r));
    const { port } = server.address() as AddressInfo;

    // Ten visitors already connected...
    const open = await Promise.all(Array.from({ length: 10 }, () => connect(port)));
    while (accepted < 10) await new Promise((r) => setImmediate(r));
    const answered = Promise.all(open.map((s) => new Promise((r) => s.once('data', r))));
    // ...each asks for a page, and three new visitors arrive at the same moment.
    open.forEach((s, i) => s.write(`GET /${i} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
    const arriving = Promise.all([connect(port), connect(port), connect(port)]);
    await answered;
    await arriving;

    // All three were accepted before the ten pages were rendered: the last page waited for them,
    // not the other way round. Without turns, each new connection waited for every waiting render
    // (libuv accepts one connection per loop iteration).
    const lastAccepted = events.lastIndexOf('accepted a new visitor');
    const answers = events.filter((e) => e.startsWith('answered'));
    expect(answers).toHaveLength(10);
    expect(events.filter((e) => e === 'accepted a new visitor')).toHaveLength(3);
    expect(lastAccepted).toBeLessThan(events.length - 1);
    expect(lastAccepted).toBeLessThan(events.indexOf(answers[answers.length - 1]!));
    expect(events.slice(0, lastAccepted).filter((e) => e.startsWith('answered')).length).toBeLessThan(10);
  });
});
