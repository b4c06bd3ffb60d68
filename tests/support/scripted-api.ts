import { afterAll, beforeAll } from 'vitest';
import { startFake, type FakeRequest, type FakeResponse, type FakeServer } from '../fakes/http';

/**
 * A local HTTP server, on a free port, for the enclosing describe block: it answers what the test
 * last set in `next` (or what `route` answers for a request), and keeps every request it got.
 */
export function scriptedApi(route?: (req: FakeRequest) => FakeResponse | undefined) {
  let server: FakeServer | undefined;
  const api = {
    next: { json: {} } as FakeResponse,
    get url() {
      return server!.url;
    },
    get requests() {
      return server!.requests;
    },
  };
  beforeAll(async () => {
    server = await startFake(0, (req) => route?.(req) ?? api.next);
  });
  afterAll(async () => {
    await server?.close();
  });
  return api;
}
