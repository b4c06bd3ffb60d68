import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Writable } from 'node:stream';
import type { EntryContext, RouterContextProvider } from 'react-router';

// React's renderer stands in for a page that is ready at once, or one that never finishes: what is
// under test is the entry's own bookkeeping around it (ADR 017), not React.
const render = vi.hoisted(() => ({ ready: true, aborted: 0, streamed: 0, fails: false }));
vi.mock('react-dom/server', () => ({
  renderToString: () => {
    if (render.fails) throw new Error('render failed');
    return '<html><body>public page</body></html>';
  },
  renderToPipeableStream: (_element: unknown, options: { onAllReady: () => void }) => {
    render.streamed++;
    const handle = {
      pipe: (destination: Writable) => {
        destination.write('<!DOCTYPE html><html><body>page</body></html>');
        destination.end();
        return destination;
      },
      abort: () => {
        render.aborted++;
      },
    };
    if (render.ready) queueMicrotask(() => options.onAllReady());
    return handle;
  },
}));

const { default: handleRequest, streamTimeout } = await import('~/entry.server');

// A back-office page (its route hydrates) and a public one (no route hydrates).
const routerContext = { staticHandlerContext: { matches: [{ route: { id: 'admin' } }] }, routeModules: { admin: { handle: { hydrate: true } } } } as unknown as EntryContext;
const publicContext = { staticHandlerContext: { matches: [{ route: { id: 'home' } }] }, routeModules: { home: {} } } as unknown as EntryContext;
const loadContext = { get: () => ({ nonce: 'n' }) } as unknown as RouterContextProvider;
const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

afterEach(() => {
  render.ready = true;
  render.aborted = 0;
  render.streamed = 0;
  render.fails = false;
  vi.useRealTimers();
});

describe('the server entry', () => {
  it('renders a page that does not hydrate in one pass, as a whole document, without a stream or a timer', async () => {
    const before = timers();
    const headers = new Headers({ 'X-Page': 'kept' });
    const response = (await handleRequest(new Request('http://localhost/'), 404, headers, publicContext, loadContext)) as Response;
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('<!DOCTYPE html><html><body>public page</body></html>');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-page')).toBe('kept');
    // Public pages carry no inline script, so their policy has no nonce.
    expect(response.headers.get('content-security-policy')).not.toContain('nonce-');
    expect(render.streamed).toBe(0);
    expect(timers()).toBe(before);
  });

  it('rejects when a public page fails to render, so that React Router renders the error page', async () => {
    render.fails = true;
    await expect(handleRequest(new Request('http://localhost/'), 200, new Headers(), publicContext, loadContext)).rejects.toThrow('render failed');
  });

  it('leaves no timer behind once a page has been read (a pending one kept every render of the last 11 s in memory)', async () => {
    const before = timers();
    for (let i = 0; i < 20; i++) {
      const response = (await handleRequest(new Request('http://localhost/'), 200, new Headers(), routerContext, loadContext)) as Response;
      expect(await response.text()).toBe('<!DOCTYPE html><html><body>page</body></html>');
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    }
    await new Promise((r) => setImmediate(r));
    expect(timers()).toBe(before);
    expect(render.aborted).toBe(0);
  });

  it('still aborts a render that never finishes, after the stream timeout', async () => {
    vi.useFakeTimers();
    render.ready = false;
    void handleRequest(new Request('http://localhost/'), 200, new Headers(), routerContext, loadContext);
    vi.advanceTimersByTime(streamTimeout);
    expect(render.aborted).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(render.aborted).toBe(1);
  });
});
