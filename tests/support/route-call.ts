import { RouterContextProvider } from 'react-router';
import { requestInfoContext } from '~/lib/request-context.server';

/** The context our server gives a route for each request (request id, nonce, client address), for calling a loader or action directly. */
export function routeContext(clientIp = '127.0.0.1'): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, { nonce: 'n', clientIp, requestId: 'r', secure: true });
  return context;
}

/** What a route's loader or action answered: its data and headers (`data(…)` or a plain object). */
export function answer(result: unknown): { body: Record<string, unknown>; headers: Headers; status: number } {
  const r = result as { type?: string; data?: Record<string, unknown>; init?: ResponseInit | null };
  if (r?.type === 'DataWithResponseInit') return { body: r.data!, headers: new Headers(r.init?.headers), status: r.init?.status ?? 200 };
  return { body: result as Record<string, unknown>, headers: new Headers(), status: 200 };
}
