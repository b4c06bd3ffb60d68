import { describe, expect, it } from 'vitest';
import { GIFT_METHODS, METHOD_RULES, readGiftForm, type GiftMethod } from '~/domain/giving/form';

/** The donate form's schema (issue 30): what each method takes, in the order the donor is told. */
const on = { receipts: true };
const off = { receipts: false };
const TAX = { tax_kind: 'individual', tax_name: 'Awa Ndiaye', tax_address: '1 rue de la Paix', tax_postalCode: '75002', tax_city: 'Paris', tax_country: 'France' };
const OPT_OUT = { tax_optOut: 'on' };
const MOBILE = { amount: '20', name: ' Awa Ndiaye ', email: ' Awa@Example.org ', phone: '+221 77 000 00 00' };
const read = (method: GiftMethod, fields: Record<string, string>, opts = off) => readGiftForm(method, fields, opts);
const error = (method: GiftMethod, fields: Record<string, string>, opts = off) => {
  const r = read(method, fields, opts);
  return r.ok ? 'ok' : r.error;
};

describe('the rule table', () => {
  it('says what each method can carry: monthly by card only, fees by card and crypto, nothing on a payment link', () => {
    expect(GIFT_METHODS.filter((m) => METHOD_RULES[m].monthly)).toEqual(['card']);
    expect(GIFT_METHODS.filter((m) => METHOD_RULES[m].fees)).toEqual(['card', 'crypto']);
    expect(GIFT_METHODS.filter((m) => METHOD_RULES[m].dedication)).toEqual(['card', 'crypto', 'paypal', 'mobileMoney']);
    expect(GIFT_METHODS.filter((m) => METHOD_RULES[m].designation)).toEqual(['card', 'crypto', 'paypal', 'mobileMoney']);
    expect(GIFT_METHODS.filter((m) => METHOD_RULES[m].taxReceipt)).toEqual(['card', 'crypto', 'paypal', 'mobileMoney']);
    expect(METHOD_RULES.mobileLink).toMatchObject({ amount: 'none', contact: 'none' });
    // A preset on the card only; what the donor tells about themselves (the gift's start keeps no address where it is 'none').
    expect(GIFT_METHODS.map((m) => METHOD_RULES[m].amount)).toEqual(['presetOrTyped', 'typed', 'typed', 'typed', 'none']);
    expect(GIFT_METHODS.map((m) => METHOD_RULES[m].contact)).toEqual(['none', 'optionalEmail', 'none', 'nameEmailPhone', 'none']);
  });
});

describe('reading a gift', () => {
  it('reads a card gift: a typed amount wins over the preset; monthly, fees, campaign, dedication, consent', () => {
    const r = read('card', {
      amount: '25,50',
      preset: 'p1',
      frequency: 'monthly',
      coverFees: 'on',
      campaign: ' un-puits ',
      dedicationKind: 'memory',
      dedicationName: ' Mariama ',
      dedicationMessage: ' Pour elle ',
      dedicationEmail: 'famille@example.org',
      newsletter: 'yes',
    });
    expect(r).toEqual({
      ok: true,
      form: {
        method: 'card',
        amount: { cents: 2550 },
        monthly: true,
        coverFees: true,
        campaign: 'un-puits',
        dedication: { kind: 'memory', name: 'Mariama', message: 'Pour elle', email: 'famille@example.org' },
        taxDetails: null,
        newsletter: true,
        email: null,
        name: '',
        phone: '',
      },
    });
  });

  it('reads a card preset when no amount is typed, and asks for an amount when neither is given', () => {
    expect(read('card', { amount: '  ', preset: 'campaign:kaya:1' })).toMatchObject({ ok: true, form: { amount: { preset: 'campaign:kaya:1' }, monthly: false, coverFees: false, newsletter: false, dedication: null } });
    expect(error('card', {})).toBe('donate.missingAmount');
    expect(error('card', { amount: 'abc', preset: 'p1' })).toBe('donate.invalidAmount');
    expect(error('card', { amount: '0' })).toBe('donate.invalidAmount');
    expect(error('card', { amount: '100000.01' })).toBe('donate.invalidAmount');
  });

  it('reads only a typed amount on the other methods (a preset is no amount there)', () => {
    expect(error('crypto', { preset: 'p1' })).toBe('donate.missingAmount');
    expect(error('paypal', { amount: '' })).toBe('donate.missingAmount');
    expect(error('paypal', { amount: '12,345' })).toBe('donate.invalidAmount');
    expect(read('paypal', { amount: '1 000' })).toMatchObject({ ok: true, form: { amount: { cents: 100000 } } });
  });

  it('asks nothing of a payment link', () => {
    expect(read('mobileLink', {})).toMatchObject({ ok: true, form: { method: 'mobileLink', amount: null, taxDetails: null } });
    expect(read('mobileLink', TAX, on)).toMatchObject({ ok: true, form: { taxDetails: null } });
  });
});

describe('what a method cannot carry', () => {
  it('is refused, not dropped: monthly, fees, a dedication, a campaign where the method has none', () => {
    expect(error('crypto', { amount: '10', frequency: 'monthly' })).toBe('donate.unavailable');
    expect(error('paypal', { amount: '10', coverFees: 'on' })).toBe('donate.unavailable');
    expect(error('mobileMoney', { ...MOBILE, coverFees: 'on' })).toBe('donate.unavailable');
    expect(error('mobileLink', { campaign: 'kaya' })).toBe('donate.unavailable');
    expect(error('mobileLink', { dedicationKind: 'honor' })).toBe('donate.unavailable');
    expect(error('mobileLink', { frequency: 'monthly' })).toBe('donate.unavailable');
    // What is not ticked is no choice: "once", fees unticked, no campaign, "no dedication".
    expect(error('paypal', { amount: '10', frequency: 'once', coverFees: '', campaign: '  ', dedicationKind: '' })).toBe('ok');
    expect(error('mobileLink', { dedicationKind: '' })).toBe('ok');
  });
});

describe('the dedication', () => {
  it('needs a name, and a valid address when one is given', () => {
    expect(error('paypal', { amount: '10', dedicationKind: 'honor' })).toBe('giving.nameRequired');
    expect(error('crypto', { amount: '10', dedicationKind: 'honor', dedicationName: 'A', dedicationEmail: 'nope' })).toBe('giving.emailInvalid');
    expect(read('mobileMoney', { ...MOBILE, dedicationKind: 'honor', dedicationName: 'A' })).toMatchObject({ ok: true, form: { dedication: { kind: 'honor', name: 'A', message: null, email: null } } });
    // An unknown kind is no dedication.
    expect(read('card', { amount: '10', dedicationKind: 'other', dedicationName: 'A' })).toMatchObject({ ok: true, form: { dedication: null } });
  });

  it('is checked before the amount', () => {
    expect(error('card', { dedicationKind: 'memory' })).toBe('giving.nameRequired');
  });
});

describe('the donor’s contact', () => {
  it('mobile money needs a name, an address and a phone, with the amount', () => {
    expect(read('mobileMoney', MOBILE)).toMatchObject({ ok: true, form: { name: 'Awa Ndiaye', email: 'awa@example.org', phone: '+221 77 000 00 00', amount: { cents: 2000 } } });
    for (const missing of ['amount', 'name', 'email', 'phone']) expect(error('mobileMoney', { ...MOBILE, [missing]: ' ' }), missing).toBe('donate.mobileRequired');
    expect(error('mobileMoney', { ...MOBILE, email: 'awa@example' })).toBe('donate.mobileRequired');
    expect(error('mobileMoney', { ...MOBILE, phone: '12345' })).toBe('donate.mobileRequired');
    expect(error('mobileMoney', { ...MOBILE, phone: '+1234567890123456789012' })).toBe('donate.mobileRequired');
    expect(error('mobileMoney', { ...MOBILE, phone: '06 12 34 56 78 x' })).toBe('donate.mobileRequired');
    expect(error('mobileMoney', { ...MOBILE, amount: '0' })).toBe('donate.invalidAmount');
    // A phone as typed: spaces around are dropped, the + is optional, nothing may come before it.
    expect(read('mobileMoney', { ...MOBILE, phone: '  77 000 00 00 ' })).toMatchObject({ ok: true, form: { phone: '77 000 00 00' } });
    expect(error('mobileMoney', { ...MOBILE, phone: 'x+221 77 000 00 00' })).toBe('donate.mobileRequired');
  });

  it('crypto takes an optional address, needed when a receipt is wanted', () => {
    expect(read('crypto', { amount: '15', email: ' Satoshi@Example.org ' })).toMatchObject({ ok: true, form: { email: 'satoshi@example.org' } });
    expect(read('crypto', { amount: '15', email: '' })).toMatchObject({ ok: true, form: { email: null } });
    expect(error('crypto', { amount: '15', email: 'satoshi' })).toBe('donate.invalidEmail');
    expect(error('crypto', { amount: '15', ...TAX }, on)).toBe('donate.cryptoEmailRequired');
    expect(read('crypto', { amount: '15', ...OPT_OUT }, on)).toMatchObject({ ok: true, form: { taxDetails: null, email: null } });
    expect(read('crypto', { amount: '15', email: 'a@example.org', ...TAX }, on)).toMatchObject({ ok: true, form: { email: 'a@example.org', taxDetails: { name: 'Awa Ndiaye', city: 'Paris' } } });
    // The amount is told first.
    expect(error('crypto', { amount: '', email: 'satoshi' })).toBe('donate.missingAmount');
  });

  it('the card, PayPal and a link ask for no address, so none is read there', () => {
    expect(read('card', { amount: '10', email: 'a@example.org' })).toMatchObject({ ok: true, form: { email: 'a@example.org' } });
    expect(read('paypal', { amount: '10', email: 'nope' })).toMatchObject({ ok: true, form: { email: null } });
  });

  it('an address longer than 254 characters (the most a mailbox can have) is refused', () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(190)}.org`;
    expect(long.length).toBe(259);
    expect(error('crypto', { amount: '15', email: long })).toBe('donate.invalidEmail');
    expect(read('crypto', { amount: '15', email: `${'a'.repeat(64)}@${'b'.repeat(185)}.org` })).toMatchObject({ ok: true, form: { email: `${'a'.repeat(64)}@${'b'.repeat(185)}.org` } });
  });
});

describe('the receipt’s details', () => {
  it('are read when receipts are offered, first of all, with the fields in error and what was typed', () => {
    const r = read('paypal', { amount: '', tax_kind: 'company', tax_name: 'Awa' }, on);
    expect(r).toMatchObject({ ok: false, error: 'taxReceipt.errorsTitle', tax: { values: { name: 'Awa', kind: 'company' } } });
    expect(!r.ok && r.tax?.errors.map((e) => e.field)).toEqual(['company', 'legalForm', 'siren', 'address', 'postalCode', 'city']);
    expect(read('paypal', { amount: '10', ...TAX }, on)).toMatchObject({ ok: true, form: { taxDetails: { kind: 'individual', name: 'Awa Ndiaye', country: 'France' } } });
    expect(read('mobileMoney', { ...MOBILE, ...TAX }, on)).toMatchObject({ ok: true, form: { taxDetails: { postalCode: '75002' } } });
    // Too long: refused, and what is given back to the form is cut at 300 characters.
    const long = read('card', { amount: '10', ...TAX, tax_name: 'N'.repeat(400) }, on);
    expect(long).toMatchObject({ ok: false, error: 'taxReceipt.errorsTitle', tax: { errors: [{ field: 'name', key: 'taxReceipt.tooLong' }] } });
    expect(!long.ok && long.tax?.values.name).toBe('N'.repeat(300));
  });

  it('are not read when receipts are off, nor on a payment link', () => {
    expect(read('card', { amount: '10', tax_name: 'Awa' }, off)).toMatchObject({ ok: true, form: { taxDetails: null } });
    expect(read('card', { amount: '10', ...OPT_OUT }, on)).toMatchObject({ ok: true, form: { taxDetails: null } });
    expect(read('mobileLink', { tax_name: 'Awa' }, on)).toMatchObject({ ok: true });
  });

  it('an error other than the receipt’s carries no receipt fields', () => {
    expect(read('card', {}, off)).toEqual({ ok: false, error: 'donate.missingAmount' });
  });
});

describe('what is posted', () => {
  it('takes strings only, capped, and a value that is not a string counts as empty', () => {
    expect(readGiftForm('paypal', { amount: 10 } as never, off)).toEqual({ ok: false, error: 'donate.missingAmount' });
    expect(readGiftForm('paypal', { amount: undefined } as never, off)).toEqual({ ok: false, error: 'donate.missingAmount' });
    expect(read('paypal', { amount: '10', campaign: 'x'.repeat(150) })).toMatchObject({ ok: true, form: { campaign: 'x'.repeat(100) } });
    expect(read('mobileMoney', { ...MOBILE, name: 'N'.repeat(130) })).toMatchObject({ ok: true, form: { name: 'N'.repeat(120) } });
    expect(read('card', { preset: 'p'.repeat(250) })).toMatchObject({ ok: true, form: { amount: { preset: 'p'.repeat(200) } } });
  });
});
