import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest for stored secrets (payment provider keys): AES-256-GCM with a key derived
 * from APP_SECRET by HKDF-SHA256, one key per purpose. Format: `v1.{iv}.{tag}.{ciphertext}` (base64url).
 */
/** A 32-byte key derived from APP_SECRET for one purpose (encryption here, signatures elsewhere). */
export function derivedKey(appSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, 'thv-secret-box', purpose, 32));
}

/** `derivedKey` for one purpose, remembered for the last secret seen: links are signed by the thousand. */
export function purposeKey(purpose: string): (appSecret: string) => Buffer {
  let last: { appSecret: string; key: Buffer } | undefined;
  return (appSecret) => {
    if (last?.appSecret !== appSecret) last = { appSecret, key: derivedKey(appSecret, purpose) };
    return last.key;
  };
}

export function seal(appSecret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derivedKey(appSecret, purpose), iv);
  // Stryker disable next-line StringLiteral: an empty encoding is UTF-8 too
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/** The plaintext, or throws when the value was tampered with or sealed under another secret. */
export function open(appSecret: string, purpose: string, sealed: string): string {
  const [v, iv, tag, ct] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', derivedKey(appSecret, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
