import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskStorage, s3ConfigFrom, s3Storage, storageFromEnv, type Storage } from '~/lib/storage.server';
import { parseEnv } from '~/lib/env.server';

/** S3rver on loopback, in our port range (3500–3599), with a bucket made for the test. */
const S3_PORT = Number(process.env.TEST_S3_PORT ?? 3590) + (Number(process.env.VITEST_POOL_ID ?? 1) % 5);

async function readAll(stream: NodeJS.ReadableStream | undefined): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream!) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString();
}

function contract(name: string, make: () => Storage) {
  describe(`${name} storage`, () => {
    it('puts, gets and deletes a file under a generated key', async () => {
      const s = make();
      await s.put('abc-123.pdf', Buffer.from('%PDF-1.4 content'), 'application/pdf');
      expect((await s.get('abc-123.pdf'))?.toString()).toBe('%PDF-1.4 content');
      await s.put('abc-123.pdf', Buffer.from('%PDF-1.4 replaced'), 'application/pdf');
      expect((await s.get('abc-123.pdf'))?.toString()).toBe('%PDF-1.4 replaced');
      await s.delete('abc-123.pdf');
      expect(await s.get('abc-123.pdf')).toBeUndefined();
      await s.delete('abc-123.pdf'); // deleting twice is not an error
    });

    it('refuses keys that could escape its place', async () => {
      const s = make();
      for (const key of ['../etc/passwd', 'a/b.png', '.hidden', '']) {
        await expect(s.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/Unsafe storage key/);
      }
    });
  });
}

const diskDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-storage-'));
afterAll(() => fs.rmSync(diskDir, { recursive: true, force: true }));
contract('disk', () => diskStorage(diskDir));

describe('disk storage files', () => {
  it('never leaves a temporary file behind, and serves from its directory', async () => {
    const s = diskStorage(diskDir);
    await s.put('x1-aa.png', Buffer.from('png'), 'image/png');
    expect(s.localDir).toBe(diskDir);
    expect(fs.readdirSync(diskDir).filter((f) => f.includes('tmp'))).toEqual([]);
    expect(fs.readFileSync(path.join(diskDir, 'x1-aa.png'), 'utf8')).toBe('png');
  });
});

let s3rver: S3rver;
const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-s3-'));
const config = { endpoint: `http://127.0.0.1:${S3_PORT}`, bucket: 'media', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
beforeAll(async () => {
  s3rver = new S3rver({ port: S3_PORT, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'media' }] });
  await s3rver.run();
});
afterAll(async () => {
  await s3rver.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
});

contract('S3-compatible', () => s3Storage(config));

describe('S3-compatible storage serving', () => {
  it('opens a file with its type and immutable caching, a byte range, a conditional request; missing is undefined', async () => {
    const s = s3Storage(config);
    await s.put('doc-1.pdf', Buffer.from('%PDF-1.4 0123456789'), 'application/pdf');
    const whole = await s.open!('doc-1.pdf');
    expect(whole?.status).toBe(200);
    expect(whole?.headers['Content-Type']).toBe('application/pdf');
    expect(whole?.headers['Cache-Control']).toBe('public, max-age=31536000, immutable');
    expect(whole?.headers['Content-Length']).toBe('19');
    expect(await readAll(whole?.body)).toBe('%PDF-1.4 0123456789');

    const part = await s.open!('doc-1.pdf', { range: 'bytes=9-12' });
    expect(part?.status).toBe(206);
    expect(part?.headers['Content-Range']).toBe('bytes 9-12/19');
    expect(await readAll(part?.body)).toBe('0123');

    const again = await s.open!('doc-1.pdf', { ifNoneMatch: whole!.headers.ETag });
    expect(again?.status).toBe(304);

    expect(await s.open!('missing-1.pdf')).toBeUndefined();
    expect(await s.open!('../secret')).toBeUndefined();
  });
});

describe('choosing the storage from the environment', () => {
  it('keeps files on disk without S3_*, uses S3 with them, and refuses a partial setting', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-env-'));
    expect(storageFromEnv(parseEnv({}), dataDir).localDir).toBe(path.join(dataDir, 'media'));
    const s3 = storageFromEnv(parseEnv({ S3_ENDPOINT: config.endpoint, S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' }), dataDir);
    expect(s3.localDir).toBeUndefined();
    expect(s3.open).toBeTypeOf('function');
    expect(() => s3ConfigFrom(parseEnv({ S3_ENDPOINT: config.endpoint }))).toThrow(/S3_BUCKET/);
    expect(() => s3ConfigFrom(parseEnv({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'a' }))).toThrow(/S3_SECRET_ACCESS_KEY/);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
