import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream } from 'react-dom/server';
import type { EntryContext, RouterContextProvider } from 'react-router';
import { ServerRouter } from 'react-router';
import { contentSecurityPolicy } from '~/lib/csp.server';
import { NonceProvider } from '~/lib/nonce';
import { requestInfoContext } from '~/lib/request-context.server';

export const streamTimeout = 10_000;

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
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ''}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          const body = new PassThrough();
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
          reject(error);
        },
        onError(error: unknown) {
          didError = true;
          console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
