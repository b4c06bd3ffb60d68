/** Public URL prefix of stored media files. */
export const MEDIA_PREFIX = '/media/';

export interface ImageVariant {
  width: number;
  height: number;
  key: string;
  size: number;
}

/** What a page needs to show an image well: real size for no layout shift, and WebP variants. */
export interface ImageInfo {
  src: string;
  width?: number;
  height?: number;
  srcSet?: string;
}

export function mediaUrl(key: string): string {
  return `${MEDIA_PREFIX}${key}`;
}

export function keyFromUrl(url: string): string | undefined {
  if (!url.startsWith(MEDIA_PREFIX)) return undefined;
  const key = url.slice(MEDIA_PREFIX.length).split(/[?#]/)[0];
  return key || undefined;
}
