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
