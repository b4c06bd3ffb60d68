import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expiryFrom, sameSecret, signature, signatureMatches, stillValid } from '~/lib/signed-link.server';

/** The signed links' primitives (app/lib/signed-link.server.ts), as a link's owner and a forger see them. */
describe('signed links', () => {
  const KEY = 'k'.repeat(48);

  it('signs a message with HMAC-SHA256, in base64url by default or in hex where a provider signs so', () => {
    expect(signature(KEY, 'renew\nm1\n100')).toBe(createHmac('sha256', KEY).update('renew\nm1\n100').digest('base64url'));
    expect(signature(KEY, 'renew\nm1\n100')).toHaveLength(43);
    expect(signature(KEY, 'ab', 'hex')).toBe(createHmac('sha256', KEY).update('ab').digest('hex'));
    expect(signature(Buffer.from(KEY), 'x')).toBe(signature(KEY, 'x'));
  });

  it('accepts its own signature only: not another message’s, another key’s, an altered or a cut one', () => {
    const sig = signature(KEY, 'preview\npage\nhome\n100');
    expect(signatureMatches(KEY, 'preview\npage\nhome\n100', sig)).toBe(true);
    expect(signatureMatches(KEY, 'preview\npage\nhome\n101', sig)).toBe(false);
    // Another purpose's message with the same item can never pass for this one.
    expect(signatureMatches(KEY, 'renew\nhome\n100', sig)).toBe(false);
    expect(signatureMatches('another'.padEnd(48, 'x'), 'preview\npage\nhome\n100', sig)).toBe(false);
    expect(signatureMatches(KEY, 'preview\npage\nhome\n100', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(signatureMatches(KEY, 'preview\npage\nhome\n100', sig.slice(0, 20))).toBe(false);
    expect(signatureMatches(KEY, 'preview\npage\nhome\n100', '')).toBe(false);
  });

  it('compares secrets of any length, equal only when equal', () => {
    expect(sameSecret('my-verif-hash', 'my-verif-hash')).toBe(true);
    expect(sameSecret('my-verif-hash', 'my-verif-hasH')).toBe(false);
    expect(sameSecret('short', 'a much longer secret')).toBe(false);
    expect(sameSecret('', '')).toBe(true);
    expect(sameSecret('', 'x')).toBe(false);
  });

  it('dates a link’s expiry in whole seconds and holds it until then, not at or after it', () => {
    const now = new Date('2026-11-28T10:00:00.500Z');
    const expires = expiryFrom(now, 60_000);
    expect(expires).toBe(Math.floor(Date.parse('2026-11-28T10:01:00.500Z') / 1000));
    expect(stillValid(expires, now)).toBe(true);
    expect(stillValid(expires, new Date(expires * 1000 - 1))).toBe(true);
    expect(stillValid(expires, new Date(expires * 1000))).toBe(false);
    expect(stillValid(expires, new Date(expires * 1000 + 1))).toBe(false);
  });
});
