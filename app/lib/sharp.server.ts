import type Sharp from 'sharp';

let loaded: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips) is loaded on first use: a running site resizes images only when staff upload one,
 * and a public request never needs it. Its own cache of decoded images is kept small: we never
 * process the same file twice.
 */
export function loadSharp(): Promise<typeof Sharp> {
  return (loaded ??= import('sharp').then((m) => {
    m.default.cache({ memory: 16, files: 0, items: 20 });
    // One libvips thread: each thread has its own malloc arena, which stays resident after a resize.
    m.default.concurrency(1);
    return m.default;
  }));
}
