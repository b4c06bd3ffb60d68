import http from 'node:http';
import { expect, test } from '@playwright/test';
import { startAdminServer, type AdminServer } from '../admin/server';

/**
 * After a content change every page leaves the HTML cache, and the visitors already connected ask
 * for it again at once. Requests that render wait for their turn (server/turns.ts); one that
 * waited behind the same page's render is answered from the cache that render filled, so a burst
 * costs one render, not one per visitor (ADR 017).
 */
let server: AdminServer;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startAdminServer('sqlite', { HTML_CACHE: 'on' });
});
test.afterAll(async () => {
  await server?.stop();
});

function get(agent: http.Agent, url: string): Promise<{ status: number; cache: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, cache: String(res.headers['x-cache'] ?? '') }));
      })
      .on('error', reject);
  });
}

test('twenty visitors asking at once for a page the cache lacks cost one render', async () => {
  const visitors = 20;
  const agent = new http.Agent({ keepAlive: true, maxSockets: visitors });
  try {
    // Twenty connections, open and idle, as after a first page each.
    await Promise.all(Array.from({ length: visitors }, () => get(agent, `${server.baseURL}/healthz`)));
    // Then every one asks for a page that is not in the cache.
    const answers = await Promise.all(Array.from({ length: visitors }, () => get(agent, `${server.baseURL}/a-propos`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.cache === 'MISS')).toHaveLength(1);
    expect(answers.filter((a) => a.cache === 'HIT')).toHaveLength(visitors - 1);
  } finally {
    agent.destroy();
  }
});
