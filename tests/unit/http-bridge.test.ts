import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFetchRequest } from '../../server/http-bridge';

// The bridge's request signal is what React Router's loaders see: it must abort when the visitor
// leaves, and only then.
const signals: AbortSignal[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.get('/answered', (req, res) => {
    signals.push(toFetchRequest(req, res).signal);
    res.send('ok');
  });
  app.get('/never', (req, res) => {
    signals.push(toFetchRequest(req, res).signal);
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const closed = (signal: AbortSignal, ms: number) => new Promise<boolean>((resolve) => {
  if (signal.aborted) return resolve(true);
  const timer = setTimeout(() => resolve(false), ms);
  signal.addEventListener('abort', () => {
    clearTimeout(timer);
    resolve(true);
  });
});

describe('the Express-to-Fetch bridge', () => {
  it('does not abort a request that was answered, even once its connection closes', async () => {
    signals.length = 0;
    const res = await fetch(`${base}/answered`, { headers: { connection: 'close' } });
    expect(await res.text()).toBe('ok');
    expect(await closed(signals[0], 200)).toBe(false);
  });

  it('aborts the request when the visitor leaves before the answer', async () => {
    signals.length = 0;
    const controller = new AbortController();
    const pending = fetch(`${base}/never`, { signal: controller.signal }).catch(() => undefined);
    for (let i = 0; i < 100 && signals.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(signals[0].aborted).toBe(false);
    controller.abort();
    await pending;
    expect(await closed(signals[0], 2000)).toBe(true);
  });
});
