import { dateTimeFormat, numberFormat } from '~/lib/intl';

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

/** What the library accepts, recognised by content (magic bytes), never by name or claimed type. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const PDF_TYPE = 'application/pdf';
export type MediaKind = 'image' | 'pdf';

export const MB = 1024 * 1024;
/** Size limits, enforced on the server while the upload streams. */
export const MAX_IMAGE_BYTES = 10 * MB;
/** Pixels an image may declare (40 megapixels), read from its header before any decoding: a few KB can declare a decompression bomb. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Longest time one decoding or resizing may take before the file is refused. */
export const IMAGE_TIMEOUT_SECONDS = 20;
export const MAX_PDF_BYTES = 20 * MB;
/** Files one request may carry (the screen sends one per request, for a progress bar each). */
export const MAX_FILES_PER_REQUEST = 20;

/** The upload paths of the library (resource routes), shared by the screen and the picker. */
export const MEDIA_ADMIN_PATH = '/admin/media';
export const MEDIA_UPLOAD_PATH = '/admin/media/televerser';
export const MEDIA_LIBRARY_PATH = '/admin/media/bibliotheque';

/** A file of the library as the screens see it. */
export interface MediaItem {
  id: string;
  name: string;
  url: string;
  /** The smallest variant (or the file itself): what a thumbnail needs. */
  thumbUrl: string | null;
  mime: string;
  kind: MediaKind;
  size: number;
  width: number | null;
  height: number | null;
  uploadedAt: string;
}

/** One file's outcome in an upload. */
export type UploadResult =
  | { name: string; ok: true; item: MediaItem }
  | { name: string; ok: false; title: string; message: string };

export function kindOf(mime: string): MediaKind {
  return mime === PDF_TYPE ? 'pdf' : 'image';
}

const TYPE_LABELS: Record<string, string> = {
  'image/jpeg': 'Image JPEG',
  'image/png': 'Image PNG',
  'image/webp': 'Image WebP',
  'image/gif': 'Image GIF',
  'application/pdf': 'Document PDF',
};

export function typeLabel(mime: string): string {
  return TYPE_LABELS[mime] ?? mime;
}

/** 1 536 000 → '1,5 Mo' (French units and decimal comma). */
export function formatSize(bytes: number): string {
  const fmt = (n: number) => numberFormat('fr-FR', { maximumFractionDigits: 1 }).format(n);
  if (bytes < 1024) return `${bytes} o`;
  if (bytes < MB) return `${fmt(bytes / 1024)} Ko`;
  return `${fmt(bytes / MB)} Mo`;
}

/** A date the same on the server and in the browser (no hydration mismatch): Paris time. */
export function formatDate(iso: string): string {
  return dateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' }).format(new Date(iso));
}
