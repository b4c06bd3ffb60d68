import { describe, expect, it } from 'vitest';
import {
  afterDonorConsent,
  afterSignup,
  confirms,
  isSubscriberSource,
  isSubscriberState,
  CONSENT_WORDING_VERSION,
  SOURCE_LABELS,
  STATE_LABELS,
  leaves,
  normalEmail,
  OPT_IN_TTL_MS,
  receivesLetters,
  signupError,
  signupSchema,
  subscriberFilterFrom,
} from '~/domain/subscribers/consent';
import { unsubscribeToken, verifyUnsubscribeToken } from '~/domain/subscribers/unsubscribe-token.server';

const SECRET = 'unit-secret-'.padEnd(48, 'u');

describe('the news list’s rules', () => {
  it('asks a new, waiting or departed address to confirm; leaves a subscribed or suppressed one alone', () => {
    expect(afterSignup(undefined)).toBe('ask');
    expect(afterSignup('pending')).toBe('ask');
    expect(afterSignup('unsubscribed')).toBe('ask');
    expect(afterSignup('subscribed')).toBe('nothing');
    expect(afterSignup('suppressed')).toBe('nothing');
  });

  it('confirms only a waiting address; sends letters only to a subscribed one; lets the waiting and the subscribed leave', () => {
    expect(['pending', 'subscribed', 'unsubscribed', 'suppressed'].map((s) => confirms(s as never))).toEqual([true, false, false, false]);
    expect(['pending', 'subscribed', 'unsubscribed', 'suppressed'].map(receivesLetters)).toEqual([false, true, false, false]);
    expect(['pending', 'subscribed', 'unsubscribed', 'suppressed'].map((s) => leaves(s as never))).toEqual([true, true, false, false]);
  });

  it('a donor’s tick joins a new or waiting address, a departed one only when given after the departure, never a suppressed one', () => {
    const at = '2026-11-02T00:00:00.000Z';
    expect(afterDonorConsent(undefined, at, null)).toBe('join');
    expect(afterDonorConsent('pending', at, null)).toBe('join');
    expect(afterDonorConsent('subscribed', at, null)).toBe('nothing');
    expect(afterDonorConsent('suppressed', at, null)).toBe('nothing');
    expect(afterDonorConsent('unsubscribed', at, '2026-11-01T00:00:00.000Z')).toBe('join');
    expect(afterDonorConsent('unsubscribed', at, at)).toBe('nothing');
    expect(afterDonorConsent('unsubscribed', at, '2026-11-03T00:00:00.000Z')).toBe('nothing');
    expect(afterDonorConsent('unsubscribed', at, null)).toBe('nothing');
    // A departure long ago does not bring back an address that is subscribed or suppressed now.
    expect(afterDonorConsent('subscribed', at, '2026-01-01T00:00:00.000Z')).toBe('nothing');
    expect(afterDonorConsent('suppressed', at, '2026-01-01T00:00:00.000Z')).toBe('nothing');
  });

  it('names the wording version, the states and the sources as the back office shows them', () => {
    expect(CONSENT_WORDING_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(STATE_LABELS).toEqual({ pending: 'En attente de confirmation', subscribed: 'Abonné', unsubscribed: 'Désabonné', suppressed: 'Bloqué (refus définitif)' });
    expect(SOURCE_LABELS).toEqual({ signup: 'Inscription', donor: 'Donateur', member: 'Membre', import: 'Import' });
  });

  it('reads the sign-up form: a trimmed address, a known language, a path for the page', () => {
    expect(signupSchema.parse({ email: ' a@b.org ', lang: 'es', from: '/blog' })).toEqual({ email: 'a@b.org', lang: 'es', from: '/blog' });
    expect(signupSchema.parse({ email: 'a@b.org', lang: 'en', from: 'https://evil.example' }).from).toBe('/');
    expect(signupSchema.parse({ email: 'a@b.org', lang: 'en', from: '/a b' }).from).toBe('/');
    expect(signupSchema.parse({ email: 'a@b.org', lang: 'en', from: `/${'x'.repeat(200)}` }).from).toBe('/');
    expect(signupSchema.safeParse({ email: 'a@b.org', lang: 'de', from: '/' }).success).toBe(false);
    const error = (email: string) => {
      const r = signupSchema.safeParse({ email, lang: 'fr', from: '/' });
      return r.success ? null : signupError(r.error);
    };
    expect(error('')).toBe('required');
    expect(error('   ')).toBe('required');
    expect(error('nope')).toBe('invalidEmail');
    expect(error(`${'a'.repeat(250)}@b.org`)).toBe('tooLong');
    expect(error('ok@b.org')).toBeNull();
    // A missing field, and an error on another field first: the address's own error is told.
    const missing = signupSchema.safeParse({ lang: 'fr', from: '/' });
    expect(missing.success ? null : signupError(missing.error)).toBe('required');
    const both = signupSchema.safeParse({ email: 'nope', lang: 'de', from: '/' });
    expect(both.success ? null : signupError(both.error)).toBe('invalidEmail');
    const langOnly = signupSchema.safeParse({ email: 'ok@b.org', lang: 'de', from: '/' });
    expect(langOnly.success ? null : signupError(langOnly.error)).toBe('invalidEmail');
    expect(normalEmail('  A@B.Org ')).toBe('a@b.org');
    expect(OPT_IN_TTL_MS).toBe(172_800_000);
  });

  it('reads the back office’s filters, dropping unknown values', () => {
    expect(subscriberFilterFrom(new URLSearchParams('q=%20ana%20&status=subscribed&source=donor&language=en'))).toEqual({ q: 'ana', status: 'subscribed', source: 'donor', language: 'en' });
    expect(subscriberFilterFrom(new URLSearchParams('q=&status=gone&source=x&language=de'))).toEqual({});
    expect(subscriberFilterFrom(new URLSearchParams(`q=${'a'.repeat(150)}`)).q).toHaveLength(100);
    expect([isSubscriberState('pending'), isSubscriberState('x'), isSubscriberSource('member'), isSubscriberSource('x')]).toEqual([true, false, true, false]);
  });
});

describe('the unsubscribe link’s signature', () => {
  it('names its subscriber under this secret only, and refuses anything altered', () => {
    const token = unsubscribeToken(SECRET, 'sub-1');
    expect(token).toMatch(/^sub-1\.[\w-]{43}$/);
    expect(verifyUnsubscribeToken(SECRET, token)).toBe('sub-1');
    expect(verifyUnsubscribeToken('other-secret-'.padEnd(48, 'o'), token)).toBeUndefined();
    expect(verifyUnsubscribeToken(SECRET, token.replace('sub-1', 'sub-2'))).toBeUndefined();
    expect(verifyUnsubscribeToken(SECRET, `${token}A`)).toBeUndefined();
    expect(verifyUnsubscribeToken(SECRET, token.slice(0, -1))).toBeUndefined();
    expect(verifyUnsubscribeToken(SECRET, token.slice(token.indexOf('.')))).toBeUndefined();
    expect(verifyUnsubscribeToken(SECRET, 'no-dot')).toBeUndefined();
    // An id with a dot in it still verifies (the signature follows the last dot).
    expect(verifyUnsubscribeToken(SECRET, unsubscribeToken(SECRET, 'a.b'))).toBe('a.b');
  });
});
