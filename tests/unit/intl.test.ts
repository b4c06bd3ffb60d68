import { describe, expect, it } from 'vitest';
import { dateTimeFormat, numberFormat } from '~/lib/intl';

describe('memoized Intl formatters', () => {
  it('build one formatter per locale and options, and format as Intl does', () => {
    const a = dateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' });
    expect(dateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' })).toBe(a);
    expect(dateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/Paris' })).not.toBe(a);
    expect(dateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'Europe/Paris' })).not.toBe(a);
    expect(a.format(new Date('2026-11-24T23:30:00Z'))).toBe('25 novembre 2026');

    const euros = numberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
    expect(numberFormat('fr-FR', { style: 'currency', currency: 'EUR' })).toBe(euros);
    expect(numberFormat('fr-FR', { style: 'currency', currency: 'XOF' })).not.toBe(euros);
    expect(euros.format(1234.5)).toBe(new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(1234.5));
    expect(numberFormat('es')).toBe(numberFormat('es', {}));
  });

  it('a date formatter and a number formatter with the same locale and options are different things', () => {
    expect(dateTimeFormat('fr-FR', {})).toBeInstanceOf(Intl.DateTimeFormat);
    expect(numberFormat('fr-FR', {})).toBeInstanceOf(Intl.NumberFormat);
  });
});
