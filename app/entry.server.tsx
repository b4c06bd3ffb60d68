import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream } from 'react-dom/server';
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from 'react-router';
import { isRouteErrorResponse, ServerRouter } from 'react-router';
import { log } from '~/lib/log.server';
import { contentSecurityPolicy } from '~/lib/csp.server';
import { NonceProvider } from '~/lib/nonce';
import { requestInfoContext } from '~/lib/request-context.server';

export const streamTimeout = 10_000;

/** Errors already written to the log: React's onError and React Router's handleError may both see one. */
const logged = new WeakSet<object>();

/** A real failure, once, to the log (redacted, with the request id); never with its stack to the visitor. */
function logFailure(error: unknown, context: unknown): void {
  if (typeof error === 'object' && error !== null) {
    if (logged.has(error)) return;
    logged.add(error);
  }
  let requestId: string | undefined;
  try {
    requestId = (context as RouterContextProvider).get(requestInfoContext).requestId;
  } catch {
    requestId = undefined;
  }
  log.error('unhandled error', { requestId, error: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined });
}

/** Errors of loaders, actions and rendering: a refusal (4xx) is an answer, not an error. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logFailure(error, context);
};

/**
 * Every page is rendered completely before it is sent (onAllReady): public pages must be whole
 * before JavaScript runs, and complete pages can be cached.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // Only hydrated routes (the back office) get inline scripts, hence a nonce (ADR 003, 004).
  const hydrate = routerContext.staticHandlerContext.matches.some(
    (m) => (routerContext.routeModules[m.route.id]?.handle as { hydrate?: boolean } | undefined)?.hydrate,
  );
  const nonce = hydrate ? loadContext.get(requestInfoContext).nonce : undefined;
  if (!responseHeaders.has('Content-Security-Policy')) responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce ?? null));
  return new Promise<Response>((resolve, reject) => {
    let didError = false;
    // Aborts a render that is still running after the stream timeout. Cleared once the page has been
    // read: a pending timer holds the whole render (its output included) in memory until it fires,
    // which under load kept every page of the last 11 seconds alive (hundreds of MB).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ''}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          const body = new PassThrough();
          body.once('close', () => clearTimeout(timer));
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: didError ? 500 : responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          didError = true;
          logFailure(error, loadContext);
        },
      },
    );
    timer = setTimeout(abort, streamTimeout + 1000);
  });
}
