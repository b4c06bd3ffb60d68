import { Writable } from 'node:stream';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from 'react-router';
import { isRouteErrorResponse, ServerRouter } from 'react-router';
import { hydratesHandles } from '~/lib/hydration';
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
 * Every page is rendered completely before it is sent: public pages must be whole before
 * JavaScript runs, and complete pages can be cached. Pages that do not hydrate render to a string;
 * the back office's stream is read once React says all is ready (onAllReady).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // Only hydrated routes (the back office) get inline scripts, hence a nonce (ADR 003, 004).
  const hydrate = hydratesHandles(routerContext.staticHandlerContext.matches.map((m) => routerContext.routeModules[m.route.id]?.handle));
  const nonce = hydrate ? loadContext.get(requestInfoContext).nonce : undefined;
  if (!responseHeaders.has('Content-Security-Policy')) responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce ?? null));
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  const app = (
    <NonceProvider value={nonce ?? ''}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </NonceProvider>
  );
  if (!hydrate) {
    // A page that does not hydrate has nothing to wait for: no Suspense boundary, and React
    // Router writes its loader-data stream only with <Scripts>. One synchronous render to a string
    // skips the stream's chunk copying and text encoding (ADR 017). A render error rejects, as a
    // shell error does below.
    try {
      const html = `<!DOCTYPE html>${renderToString(app)}`;
      return Promise.resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return new Promise<Response>((resolve, reject) => {
    let didError = false;
    // Aborts a render that is still running after the stream timeout. Cleared once the page has been
    // read: a pending timer holds the whole render (its output included) in memory until it fires,
    // which under load kept every page of the last 11 seconds alive (hundreds of MB).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const { pipe, abort } = renderToPipeableStream(app, {
        nonce,
        onAllReady() {
          // Everything is ready: React writes the whole page synchronously into `page`, and the
          // response carries those bytes. No Node-to-web stream pair per request (ADR 017).
          const chunks: Uint8Array[] = [];
          const page = new Writable({
            write(chunk: Uint8Array, _encoding, done) {
              chunks.push(chunk);
              done();
            },
          });
          page.once('finish', () => {
            clearTimeout(timer);
            resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: didError ? 500 : responseStatusCode }));
          });
          pipe(page);
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
