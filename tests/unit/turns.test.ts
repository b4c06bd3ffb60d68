import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptsFirst, hasLeft, nextTurn, waitingForTurn } from '../../server/turns';

// Requests that render take turns (server/turns.ts, ADR 017): under load a new visitor's connection
// is accepted within one render, not after every render already waiting; a burst of new visitors is
// accepted at once; a visitor who left is not rendered for.

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

async function listen(handler: http.RequestListener): Promise<number> {
  server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server!.once('listening', r));
  return (server.address() as AddressInfo).port;
}

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

  it('lets go of a request whose visitor left while it waited, and starts the next one', async () => {
    const gone = new Set([1, 3]);
    const outcome = await Promise.all([0, 1, 2, 3, 4].map((i) => nextTurn(() => gone.has(i)).then((started) => `${i}:${started}`)));
    expect(outcome).toEqual(['0:true', '1:false', '2:true', '3:false', '4:true']);
    expect(waitingForTurn()).toBe(0);
  });

  it('renders nothing for visitors who closed their connection while waiting', async () => {
    const rendered: string[] = [];
    const leaving = new Map<string, net.Socket>();
    let received = 0;
    const port = await listen(async (req, res) => {
      received += 1;
      // These visitors leave as soon as they have asked, while ten pages are rendered before theirs.
      leaving.get(req.url!)?.destroy();
      if (!(await nextTurn(() => hasLeft(req.socket)))) return;
      rendered.push(req.url!);
      busy(10); // a render
      res.end('ok');
    });
    const staying = await Promise.all(Array.from({ length: 10 }, () => connect(port)));
    for (let i = 0; i < 3; i++) leaving.set(`/leave-${i}`, await connect(port));
    const answered = Promise.all(staying.map((s) => new Promise((r) => s.once('data', r))));
    staying.forEach((s, i) => s.write(`GET /stay-${i} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
    // The three ask once the ten requests have been read: theirs wait behind most of those renders.
    while (received < 10) await new Promise((r) => setImmediate(r));
    for (const [url, s] of leaving) s.write(`GET ${url} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await answered;
    while (waitingForTurn() > 0) await new Promise((r) => setImmediate(r));
    expect(rendered).toHaveLength(10);
    expect(rendered.every((url) => url.startsWith('/stay-'))).toBe(true);
  });

  it('accepts a burst of new connections before the next render', async () => {
    const events: string[] = [];
    let accepted = 0;
    const arriving: Promise<net.Socket>[] = [];
    const port = await listen(async (req, res) => {
      await nextTurn();
      // During the first render, five new visitors connect at once.
      if (req.url === '/0') for (let i = 0; i < 5; i++) arriving.push(connect(port));
      busy(10);
      events.push(`answered ${req.url}`);
      res.end('ok');
    });
    acceptsFirst(server!);
    server!.on('connection', () => {
      accepted += 1;
      if (accepted > 6) events.push('accepted');
    });
    const open = await Promise.all(Array.from({ length: 6 }, () => connect(port)));
    while (accepted < 6) await new Promise((r) => setImmediate(r));
    const answered = Promise.all(open.map((s) => new Promise((r) => s.once('data', r))));
    open.forEach((s, i) => s.write(`GET /${i} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
    await answered;
    await Promise.all(arriving);
    // All five were accepted right after the first page, before the second was rendered. Without
    // acceptsFirst, one was accepted per render: between /0 and /1, /1 and /2, and so on.
    expect(events.slice(0, 7)).toEqual(['answered /0', 'accepted', 'accepted', 'accepted', 'accepted', 'accepted', 'answered /1']);
  });
});
