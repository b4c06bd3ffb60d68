import { describe, expect, it } from 'vitest';
import { euroCentsInFrench, euroFigures, integerInFrench } from '~/domain/receipts/words';
import { FIELD_LABEL, readTaxDetails } from '~/domain/receipts/donor-details';
import { parisYear, parisYearStart } from '~/domain/receipts/calendar';
import { translate } from '~/lib/i18n';
import en from '~/locales/en';
import es from '~/locales/es';
import fr from '~/locales/fr';
import { missingFields, receiptsActive, EMPTY_RECEIPT_SETTINGS, receiptSettingsSchema } from '~/domain/receipts/settings';

describe('amounts in French words', () => {
  it.each([
    [0, 'zéro'],
    [1, 'un'],
    [16, 'seize'],
    [17, 'dix-sept'],
    [21, 'vingt et un'],
    [22, 'vingt-deux'],
    [31, 'trente et un'],
    [61, 'soixante et un'],
    [70, 'soixante-dix'],
    [71, 'soixante et onze'],
    [72, 'soixante-douze'],
    [79, 'soixante-dix-neuf'],
    [80, 'quatre-vingts'],
    [81, 'quatre-vingt-un'],
    [90, 'quatre-vingt-dix'],
    [91, 'quatre-vingt-onze'],
    [99, 'quatre-vingt-dix-neuf'],
    [100, 'cent'],
    [101, 'cent un'],
    [180, 'cent quatre-vingts'],
    [200, 'deux cents'],
    [201, 'deux cent un'],
    [280, 'deux cent quatre-vingts'],
    [1000, 'mille'],
    [1001, 'mille un'],
    [2000, 'deux mille'],
    [80_000, 'quatre-vingt mille'],
    [200_000, 'deux cent mille'],
    [280_080, 'deux cent quatre-vingt mille quatre-vingts'],
    [1_000_000, 'un million'],
    [2_000_000, 'deux millions'],
    [200_000_000, 'deux cents millions'],
    [80_000_000, 'quatre-vingts millions'],
    [1_234_567, 'un million deux cent trente-quatre mille cinq cent soixante-sept'],
    [3_000_000_000, 'trois milliards'],
  ])('%i → %s', (n, words) => {
    expect(integerInFrench(n)).toBe(words);
  });

  it('writes euros and centimes as a receipt prints them', () => {
    expect(euroCentsInFrench(123_456)).toBe('mille deux cent trente-quatre euros et cinquante-six centimes');
    expect(euroCentsInFrench(100)).toBe('un euro');
    expect(euroCentsInFrench(2000)).toBe('vingt euros');
    expect(euroCentsInFrench(101)).toBe('un euro et un centime');
    expect(euroCentsInFrench(56)).toBe('cinquante-six centimes');
    expect(euroCentsInFrench(8_000)).toBe('quatre-vingts euros');
    expect(euroCentsInFrench(100_000_000)).toBe('un million d’euros');
    expect(euroCentsInFrench(10_000_000)).toBe('cent mille euros');
    expect(euroFigures(123_456)).toBe('1 234,56 €');
  });

  it('refuses what is not an amount', () => {
    expect(() => euroCentsInFrench(-1)).toThrow();
    expect(() => euroCentsInFrench(1.5)).toThrow();
    expect(() => integerInFrench(1e12)).toThrow();
  });
});

describe('donor details for the receipt', () => {
  const form = (v: Record<string, string>) => (k: string) => v[k] ?? '';

  it('needs name and address from an individual, and adds France when no country is typed', () => {
    const r = readTaxDetails(form({ tax_kind: 'individual', tax_name: 'Awa Diallo', tax_address: '3 rue des Lilas', tax_postalCode: '75011', tax_city: 'Paris' }));
    expect(r).toMatchObject({ ok: true, details: { kind: 'individual', name: 'Awa Diallo', country: 'France', company: '', siren: '' } });
    const missing = readTaxDetails(form({ tax_kind: 'individual', tax_name: 'Awa' }));
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.errors.map((e) => e.field)).toEqual(['address', 'postalCode', 'city']);
  });

  it('needs the company name and a 9-digit SIREN from a company', () => {
    const bad = readTaxDetails(form({ tax_kind: 'company', tax_name: 'A. Diallo', tax_company: 'ACME', tax_siren: '12345', tax_address: '1 rue', tax_postalCode: '69001', tax_city: 'Lyon' }));
    expect(!bad.ok && bad.errors).toEqual([{ field: 'siren', key: 'taxReceipt.invalidSiren' }]);
    const good = readTaxDetails(form({ tax_kind: 'company', tax_name: 'A. Diallo', tax_company: 'ACME', tax_siren: '123 456 789', tax_address: '1 rue', tax_postalCode: '69001', tax_city: 'Lyon' }));
    expect(good).toMatchObject({ ok: true, details: { kind: 'company', company: 'ACME', siren: '123456789' } });
  });

  it('says what is wrong in the donor’s language', () => {
    const r = readTaxDetails(() => '');
    const first = !r.ok ? r.errors[0] : undefined;
    expect(first).toEqual({ field: 'name', key: 'taxReceipt.required' });
    const say = (m: typeof fr) => translate(m, first!.key, { field: translate(m, FIELD_LABEL[first!.field]) });
    expect(say(fr)).toBe('Nom et prénom : champ obligatoire pour le reçu fiscal.');
    expect(say(en)).toBe('Full name: required for the tax receipt.');
    expect(say(es)).toBe('Nombre y apellidos: obligatorio para el recibo fiscal.');
  });

  it('asks nothing of a donor who wants no receipt', () => {
    expect(readTaxDetails(form({ tax_optOut: 'on' }))).toMatchObject({ ok: true, details: null });
  });
});

describe('organisation settings', () => {
  it('names every mandatory field still empty and stays off until complete', () => {
    const s = { ...EMPTY_RECEIPT_SETTINGS, enabled: true, legalName: 'Fondation THV' };
    expect(missingFields(s)).toEqual(['Adresse', 'Code postal', 'Commune', 'N° SIREN ou RNA', 'Objet', 'Qualité de l’organisme', 'Nom du signataire', 'Qualité du signataire']);
    expect(receiptsActive(s)).toBe(false);
    const full = { ...s, address: '1 rue', postalCode: '75001', city: 'Paris', registration: '123456789', object: 'Aide', legalBase: 'fondation_rup' as const, signatoryName: 'M. X', signatoryTitle: 'Président' };
    expect(receiptsActive(full)).toBe(true);
    expect(receiptsActive({ ...full, enabled: false })).toBe(false);
  });

  it('accepts a SIREN or an RNA number only', () => {
    const base = { ...EMPTY_RECEIPT_SETTINGS, enabled: 'on' };
    expect(receiptSettingsSchema.safeParse({ ...base, registration: 'w123456789' }).data?.registration).toBe('W123456789');
    expect(receiptSettingsSchema.safeParse({ ...base, registration: '12345' }).success).toBe(false);
  });
});

describe('the receipts’ calendar year', () => {
  it('is the French one: a gift at 00:30 in Paris on 1 January belongs to the new year', () => {
    expect(parisYear('2026-12-31T23:30:00.000Z')).toBe(2027);
    expect(parisYear('2026-12-31T22:59:59.000Z')).toBe(2026);
    expect(parisYear('2026-07-01T23:30:00.000Z')).toBe(2026);
    expect(parisYearStart(2027)).toBe('2026-12-31T23:00:00.000Z');
  });
});
