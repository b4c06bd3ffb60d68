import { describe, expect, it } from 'vitest';
import { DONOR_EMAIL, readOptionalEmail } from '~/domain/donations/donor-email';

/** The donor's address on the donate forms (card and crypto: optional; mobile money: required). */
describe('donor email', () => {
  it('an empty or blank address is no address; one typed is kept trimmed and lower-cased', () => {
    expect(readOptionalEmail('')).toEqual({ ok: true, email: null });
    expect(readOptionalEmail('   ')).toEqual({ ok: true, email: null });
    expect(readOptionalEmail('  Awa.Diop@Example.SN ')).toEqual({ ok: true, email: 'awa.diop@example.sn' });
  });

  it('refuses what cannot be an address', () => {
    for (const bad of ['awa', 'awa@', '@example.sn', 'awa@example', 'awa@example.s', 'a wa@example.sn', 'awa@exa mple.sn', 'awa@@example.sn', 'awa@example.sn x']) {
      expect(readOptionalEmail(bad), bad).toEqual({ ok: false });
    }
  });

  it('bounds each part: 64 characters before @, 190 for the domain name before its last dot, 2 or more after it', () => {
    const local = 'a'.repeat(64);
    const domain = 'd'.repeat(190);
    expect(DONOR_EMAIL.test(`${local}@${domain}.sn`)).toBe(true);
    expect(DONOR_EMAIL.test(`${local}a@${domain}.sn`)).toBe(false);
    expect(DONOR_EMAIL.test(`${local}@${domain}d.sn`)).toBe(false);
    expect(DONOR_EMAIL.test(`x@y.sn`)).toBe(true);
    expect(DONOR_EMAIL.test(`x@y.s`)).toBe(false);
    expect(DONOR_EMAIL.test(`x@y.${'s'.repeat(20)}`)).toBe(true);
  });
});
