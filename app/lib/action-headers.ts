/**
 * A route's `headers` export that keeps what its action said (Retry-After on a 429) on a
 * document request too; React Router applies action headers by itself only to data requests.
 */
export function withActionHeaders({ actionHeaders, parentHeaders }: { actionHeaders: Headers; parentHeaders: Headers }): Headers {
  const headers = new Headers(parentHeaders);
  const retry = actionHeaders.get('Retry-After');
  if (retry) headers.set('Retry-After', retry);
  return headers;
}

/**
 * The `headers` of a page whose forms lead to a payment provider (the donate and joining pages,
 * the thank-you page's monthly offer): its loader's Content-Security-Policy (the provider origins
 * its forms may reach), the cache rule of its action's answer or else of its loader's, and the
 * action's Retry-After on a 429, on document requests too.
 */
export function formPageHeaders({ loaderHeaders, actionHeaders }: { loaderHeaders: Headers; actionHeaders: Headers }): Headers {
  const h = new Headers();
  const csp = loaderHeaders.get('Content-Security-Policy') ?? actionHeaders.get('Content-Security-Policy');
  if (csp) h.set('Content-Security-Policy', csp);
  const cacheControl = actionHeaders.get('Cache-Control') ?? loaderHeaders.get('Cache-Control');
  if (cacheControl) h.set('Cache-Control', cacheControl);
  const retry = actionHeaders.get('Retry-After');
  if (retry) h.set('Retry-After', retry);
  return h;
}
