import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import type { DB } from '~db/index';
import type { Storage } from '~/lib/storage.server';
import { makePng, pngDeclaring } from '../support/media-files';

/**
 * Decoding an image is bounded twice (#12): by the pixels its header declares, checked before any
 * pixel is decoded, and by time. The time bound is brought down to one second here (it is
 * IMAGE_TIMEOUT_SECONDS in the product), and every sharp pipeline is watched for what decodes.
 */
const decodes = vi.hoisted(() => [] as string[]);
vi.mock('~/domain/media/media', async (importOriginal) => ({ ...(await importOriginal<typeof import('~/domain/media/media')>()), IMAGE_TIMEOUT_SECONDS: 1 }));
vi.mock('~/lib/sharp.server', async (importOriginal) => {
  const real = await importOriginal<typeof import('~/lib/sharp.server')>();
  const DECODING = ['stats', 'toBuffer', 'toFile', 'raw'] as const;
  return {
    loadSharp: async () => {
      const factory = await real.loadSharp();
      return new Proxy(factory, {
        apply(target, self, args) {
          const pipeline = Reflect.apply(target, self, args) as Record<string, (...a: unknown[]) => unknown>;
          for (const name of DECODING) {
            const own = pipeline[name].bind(pipeline);
            pipeline[name] = (...a: unknown[]) => {
              decodes.push(name);
              return own(...a);
            };
          }
          return pipeline;
        },
      });
    },
  };
});

const { checkFile } = await import('~/domain/media/check.server');
const { storeImage } = await import('~/domain/media/images.server');

/** Storage that keeps files in memory, to see what is left behind. */
function memoryStorage() {
  const files = new Map<string, Buffer>();
  const storage = {
    put: async (key: string, data: Buffer) => void files.set(key, data),
    delete: async (key: string) => void files.delete(key),
  } as unknown as Storage;
  return { files, storage };
}

describe('bounded image decoding', () => {
  it('refuses a 12 000 × 12 000 PNG from its header, without decoding a pixel, in well under a second', async () => {
    decodes.length = 0;
    const start = performance.now();
    const result = await checkFile('bombe.png', pngDeclaring(12_000, 12_000));
    const elapsed = performance.now() - start;
    expect(result).toMatchObject({ ok: false, title: 'Image trop grande' });
    expect(decodes).toEqual([]);
    expect(elapsed).toBeLessThan(1000);
    // An ordinary image is decoded in full by the same check (the watch above does see decoding).
    expect(await checkFile('photo.png', await makePng(40, 30))).toMatchObject({ ok: true });
    expect(decodes).toEqual(['stats']);
  });

  it('gives up resizing an image that takes longer than the time bound, and leaves nothing stored', { timeout: 120_000 }, async () => {
    // 36 megapixels of noise (within the pixel limit): its WebP variants take seconds to encode.
    const side = 6000;
    const heavy = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
    const { files, storage } = memoryStorage();
    const start = performance.now();
    const error = await storeImage({} as DB, storage, 'lourde.jpg', heavy, 'image/jpeg').catch((e: unknown) => e);
    const elapsed = performance.now() - start;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/timeout/i);
    // One pipeline at most runs to its bound before the refusal (a generous margin for a busy machine).
    expect(elapsed).toBeLessThan(15_000);
    expect(files.size).toBe(0);
  });
});
