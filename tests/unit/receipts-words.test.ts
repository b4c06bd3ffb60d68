import { describe, expect, it } from 'vitest';
import { euroCentsInFrench, euroFigures, integerInFrench } from '~/domain/receipts/words';
import { FIELD_LABEL, TAX_FIELDS, parseTaxDetails, readTaxDetails } from '~/domain/receipts/donor-details';
import { parisYear, parisYearStart } from '~/lib/paris';
import { translate } from '~/lib/i18n';
import en from '~/locales/en';
import es from '~/locales/es';
import fr from '~/locales/fr';
import { missingFields, receiptsActive, EMPTY_RECEIPT_SETTINGS, MANDATORY, receiptSettingsSchema } from '~/domain/receipts/settings';

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
    [1_000_000_000, 'un milliard'],
    [200_000_000_000, 'deux cents milliards'],
    [80_000_000_000, 'quatre-vingts milliards'],
    [21_000, 'vingt et un mille'],
    [1_001_000, 'un million mille'],
    [999_999_999_999, 'neuf cent quatre-vingt-dix-neuf milliards neuf cent quatre-vingt-dix-neuf millions neuf cent quatre-vingt-dix-neuf mille neuf cent quatre-vingt-dix-neuf'],
  ])('%i → %s', (n, words) => {
    expect(integerInFrench(n)).toBe(words);
  });

  it('knows every unit and ten', () => {
    expect(Array.from({ length: 20 }, (_, n) => integerInFrench(n))).toEqual([
      'zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf',
      'dix', 'onze', 'douze', 'treize', 'quatorze', 'quinze', 'seize', 'dix-sept', 'dix-huit', 'dix-neuf',
    ]);
    expect([20, 30, 40, 50, 60].map(integerInFrench)).toEqual(['vingt', 'trente', 'quarante', 'cinquante', 'soixante']);
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
    expect(euroCentsInFrench(0)).toBe('zéro euro');
    expect(euroCentsInFrench(200_000_000)).toBe('deux millions d’euros');
    expect(euroCentsInFrench(150_000_000)).toBe('un million cinq cent mille euros');
  });

  it('refuses what is not an amount', () => {
    expect(() => euroCentsInFrench(-1)).toThrow(new RangeError('invalid amount: -1'));
    expect(() => euroCentsInFrench(1.5)).toThrow(new RangeError('invalid amount: 1.5'));
    expect(() => integerInFrench(1e12)).toThrow(new RangeError('out of range: 1000000000000'));
    expect(() => integerInFrench(-1)).toThrow(new RangeError('out of range: -1'));
    expect(() => integerInFrench(2.5)).toThrow(new RangeError('out of range: 2.5'));
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

  it('needs the company name, its legal form and a 9-digit SIREN from a company', () => {
    const bad = readTaxDetails(form({ tax_kind: 'company', tax_name: 'A. Diallo', tax_company: 'ACME', tax_legalForm: 'SAS', tax_siren: '12345', tax_address: '1 rue', tax_postalCode: '69001', tax_city: 'Lyon' }));
    expect(!bad.ok && bad.errors).toEqual([{ field: 'siren', key: 'taxReceipt.invalidSiren' }]);
    const good = readTaxDetails(form({ tax_kind: 'company', tax_name: 'A. Diallo', tax_company: 'ACME', tax_legalForm: ' SAS ', tax_siren: '123 456 789', tax_address: '1 rue', tax_postalCode: '69001', tax_city: 'Lyon' }));
    expect(good).toMatchObject({ ok: true, details: { kind: 'company', company: 'ACME', legalForm: 'SAS', siren: '123456789' } });
    const noForm = readTaxDetails(form({ tax_kind: 'company', tax_name: 'A. Diallo', tax_company: 'ACME', tax_siren: '123456789', tax_address: '1 rue', tax_postalCode: '69001', tax_city: 'Lyon' }));
    expect(!noForm.ok && noForm.errors).toEqual([{ field: 'legalForm', key: 'taxReceipt.required' }]);
    const say = (m: typeof fr) => translate(m, 'taxReceipt.required', { field: translate(m, FIELD_LABEL.legalForm) });
    expect(say(fr)).toBe('Forme juridique (SAS, SARL, association…) : champ obligatoire pour le reçu fiscal.');
    expect(say(en)).toBe('Legal form (e.g. SAS, SARL, association): required for the tax receipt.');
    expect(say(es)).toBe('Forma jurídica (SAS, SARL, asociación…): obligatorio para el recibo fiscal.');
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

  it('trims what is typed, keeps the country typed, and ignores company fields an individual left filled', () => {
    const r = readTaxDetails(
      form({ tax_kind: 'individual', tax_name: ' Awa Diallo ', tax_company: 'ACME', tax_legalForm: 'SAS', tax_siren: 'abc', tax_address: ' 3 rue des Lilas ', tax_postalCode: ' 12500 ', tax_city: ' Dakar ', tax_country: ' Sénégal ' }),
    );
    expect(r).toEqual({
      ok: true,
      details: { kind: 'individual', name: 'Awa Diallo', company: '', siren: '', address: '3 rue des Lilas', postalCode: '12500', city: 'Dakar', country: 'Sénégal' },
      values: expect.objectContaining({ name: 'Awa Diallo', country: 'Sénégal' }),
    });
  });

  it('lists every missing field of a company, in the form\'s order', () => {
    const r = readTaxDetails(form({ tax_kind: 'company' }));
    expect(!r.ok && r.errors).toEqual(['name', 'company', 'legalForm', 'siren', 'address', 'postalCode', 'city'].map((field) => ({ field, key: 'taxReceipt.required' })));
  });

  it('refuses over-long fields (then says nothing else about them) and a SIREN that is not exactly nine digits', () => {
    const company = { tax_kind: 'company', tax_name: 'A. Diallo', tax_company: 'ACME', tax_legalForm: 'SARL', tax_siren: '123456789', tax_address: '1 rue', tax_postalCode: '69001', tax_city: 'Lyon' };
    const errors = (v: Record<string, string>) => {
      const r = readTaxDetails(form({ ...company, ...v }));
      return r.ok ? [] : r.errors;
    };
    expect(errors({ tax_name: 'n'.repeat(120) })).toEqual([]);
    expect(errors({ tax_name: 'n'.repeat(121) })).toEqual([{ field: 'name', key: 'taxReceipt.tooLong' }]);
    expect(errors({ tax_siren: '1234567890123' })).toEqual([{ field: 'siren', key: 'taxReceipt.tooLong' }]);
    expect(errors({ tax_legalForm: 'f'.repeat(60) })).toEqual([]);
    expect(errors({ tax_legalForm: 'f'.repeat(61) })).toEqual([{ field: 'legalForm', key: 'taxReceipt.tooLong' }]);
    for (const siren of ['A12345678', '1234567890', '12345678A'])
      expect(errors({ tax_siren: siren }), siren).toEqual([{ field: 'siren', key: 'taxReceipt.invalidSiren' }]);
    expect(errors({ tax_siren: '12345', tax_city: '' })).toEqual([
      { field: 'city', key: 'taxReceipt.required' },
      { field: 'siren', key: 'taxReceipt.invalidSiren' },
    ]);
  });

  it('has a label for every field in every language', () => {
    for (const messages of [fr, en, es])
      for (const f of TAX_FIELDS) expect(translate(messages, FIELD_LABEL[f]), f).not.toMatch(/^$|taxReceipt\./);
  });

  it('reads the details stored on a gift, or none', () => {
    expect(parseTaxDetails(JSON.stringify({ kind: 'individual', name: 'Awa' }))).toEqual({ kind: 'individual', name: 'Awa' });
    expect(parseTaxDetails(null)).toBeNull();
    expect(parseTaxDetails('')).toBeNull();
    expect(parseTaxDetails('{pas du json')).toBeNull();
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
    const registration = (v: string) => {
      const r = receiptSettingsSchema.safeParse({ ...base, registration: v });
      return r.success ? r.data.registration : r.error.issues.map((i) => i.message).join();
    };
    expect(registration(' 123 456 789 ')).toBe('123456789');
    expect(registration('w 123 456 789')).toBe('W123456789');
    expect(registration('  ')).toBe('');
    for (const bad of ['12345678', '1234567890', 'A123456789', 'W12345678', 'W1234567890', 'XW123456789', 'abcdefghi'])
      expect(registration(bad), bad).toBe('Un SIREN (9 chiffres) ou un numéro RNA (W suivi de 9 chiffres).');
  });

  it('starts empty and off, numbering with RF', () => {
    expect(missingFields(EMPTY_RECEIPT_SETTINGS)).toEqual(Object.values(MANDATORY));
    expect(Object.values(MANDATORY)).toContain('Dénomination');
    expect(receiptsActive({ ...EMPTY_RECEIPT_SETTINGS, ...Object.fromEntries(Object.keys(MANDATORY).map((k) => [k, 'x'])) })).toBe(false);
    expect(EMPTY_RECEIPT_SETTINGS.prefix).toBe('RF');
    expect(missingFields({ ...EMPTY_RECEIPT_SETTINGS, legalName: '   ' })).toContain('Dénomination');
  });

  it('checks the settings form: switch, lengths, choices, signature image and prefix', () => {
    const valid = { ...EMPTY_RECEIPT_SETTINGS, legalName: ' Fondation THV ', legalBase: 'fondation_rup', signatureImage: ' /media/signatures/presidente.png ', prefix: ' RF-2 ' };
    const parsed = (v: Record<string, unknown>) => receiptSettingsSchema.safeParse({ ...valid, ...v });
    const issues = (v: Record<string, unknown>) => Object.fromEntries((parsed(v).error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(parsed({}).data).toMatchObject({ enabled: false, legalName: 'Fondation THV', signatureImage: '/media/signatures/presidente.png', prefix: 'RF-2' });
    for (const on of ['on', 'true', true]) expect(parsed({ enabled: on }).data?.enabled, String(on)).toBe(true);
    for (const off of ['', 'off', 'false', false, undefined]) expect(parsed({ enabled: off }).data?.enabled, String(off)).toBe(false);
    expect(issues({ legalName: 'n'.repeat(201) })).toEqual({ legalName: '200 caractères au plus.' });
    expect(issues({ legalBase: 'autre', rate: '50', model: 'chaque' })).toEqual({ legalBase: 'Choisissez une qualité.', rate: 'Choisissez un taux.', model: 'Choisissez un modèle.' });
    for (const ok of ['', '/media/s.png', '/media/a/b-c_d.png']) expect(issues({ signatureImage: ok }), ok).toEqual({});
    for (const bad of ['https://x.org/media/s.png', 'x/media/s.png', '/media/', '/media/s png', '/media/s.png?x'])
      expect(issues({ signatureImage: bad }), bad).toEqual({ signatureImage: 'Choisissez une image de la médiathèque.' });
    for (const ok of ['', 'RF', 'A-1', 'ABCDEFGHIJ']) expect(issues({ prefix: ok }), ok).toEqual({});
    for (const bad of ['rf', 'ABCDEFGHIJK', 'xRF', 'RFx', 'R F'])
      expect(issues({ prefix: bad }), bad).toEqual({ prefix: 'Lettres majuscules, chiffres et tirets, 10 au plus.' });
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
