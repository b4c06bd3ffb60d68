/**
 * Headers of an answer that must never be kept by the browser or a shared cache, nor served from
 * the page cache: a donor's space, a sign-up or unsubscribe page holding a personal token.
 */
export const NO_STORE = { 'Cache-Control': 'private, no-store' };
