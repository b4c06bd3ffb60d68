import { describe, expect, it } from 'vitest';
import { choiceLabel, isCfa, isMeans, MEANS, meansKey, meansLabel, meansOf, meansText, OFFLINE, providerFor, receiptMeansLabel, shortMeansLabel, staffMeansLabel, storedAs } from '~/domain/means/means';
import { PAYMENT_MEANS } from '~/domain/donations/status';
import { translate } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';

/** The one table of the means of payment (issue 39): what each word maps to, for every reader. */
describe('the means of payment', () => {
  it('maps each means to what the ledger stores and back, one to one (a SEPA debit by Stripe’s method)', () => {
    expect(MEANS.map(storedAs)).toEqual(['stripe', 'stripe', 'paypal', 'coingate', 'flutterwave', 'mobile_link', 'cash', 'cheque', 'transfer', 'in_kind', 'waived_expenses']);
    expect([...new Set(MEANS.map(storedAs))].sort()).toEqual([...PAYMENT_MEANS].sort());
    for (const m of MEANS.filter((x) => x !== 'sepa')) expect(meansOf(storedAs(m))).toBe(m);
    // Stripe takes cards and SEPA debits: the method it reported tells them apart; any other method (or none) is a card.
    expect(meansOf('stripe', 'sepa_debit')).toBe('sepa');
    expect(meansOf('stripe', 'card')).toBe('card');
    expect(meansOf('stripe', null)).toBe('card');
    expect(meansOf('paypal', 'sepa_debit')).toBe('paypal');
    expect(meansOf('sepa', 'card')).toBe('sepa');
    expect(meansKey({ provider: 'stripe', method: 'sepa_debit' })).toBe('sepa');
    expect(meansKey({ provider: 'stripe', method: 'card' })).toBe('stripe');
    expect(meansKey({ provider: 'cheque', method: null })).toBe('cheque');
    expect(meansKey({ provider: 'bitcoin' })).toBe('bitcoin');
    // A means names itself; the dues history's old word for mobile money and unknown words name nothing.
    expect(meansOf('mobileMoney')).toBe('mobileMoney');
    expect(meansOf('mobile_money')).toBeUndefined();
    expect(meansOf('bitcoin')).toBeUndefined();
    expect(meansOf('toString')).toBeUndefined();
    expect(isMeans('card')).toBe(true);
    expect(isMeans('stripe')).toBe(false);
    expect(isMeans(3)).toBe(false);
  });

  it('names the provider that takes a means online, and none for money received by hand', () => {
    expect(Object.fromEntries(MEANS.map((m) => [m, providerFor(m)]))).toEqual({
      card: 'stripe',
      sepa: 'stripe',
      paypal: 'paypal',
      crypto: 'coingate',
      mobileMoney: 'flutterwave',
      mobileLink: 'mobile_link',
      cash: undefined,
      cheque: undefined,
      transfer: undefined,
      inKind: undefined,
      waivedExpenses: undefined,
    });
    expect(OFFLINE).toEqual(['cash', 'cheque', 'transfer']);
  });

  it('says each means in the payer’s language, from a means or a stored payment alike', () => {
    const say = (lang: 'fr' | 'en' | 'es', v: string) => translate(messagesFor(lang), meansLabel(v)!);
    expect(say('en', 'sepa')).toBe('SEPA Direct Debit');
    expect(translate(messagesFor('es'), meansLabel('stripe', 'sepa_debit')!)).toBe('Adeudo directo SEPA');
    expect(MEANS.filter((m) => m !== 'sepa').map((m) => say('fr', m))).toEqual(['Carte bancaire', 'PayPal', 'Crypto-monnaie', 'Mobile money', 'Mobile money', 'Espèces', 'Chèque', 'Virement', 'En nature', 'Abandon de frais']);
    expect(say('en', 'stripe')).toBe(say('en', 'card'));
    expect(say('es', 'cheque')).not.toBe(say('fr', 'cheque'));
    expect(meansLabel('bitcoin')).toBeUndefined();
    const t = (k: Parameters<typeof translate>[1]) => translate(messagesFor('en'), k);
    expect(meansText('flutterwave', t)).toBe(t('donorSpace.methodMobile'));
    expect(meansText('bitcoin', t)).toBe('bitcoin');
  });

  it('says each means in the back office, long (lists, reports, CSV) and short (dues history), unknown words as they are', () => {
    expect(staffMeansLabel('stripe', 'sepa_debit')).toBe('Prélèvement SEPA');
    expect(shortMeansLabel('stripe', 'sepa_debit')).toBe('Prélèvement SEPA');
    expect(MEANS.map((m) => staffMeansLabel(m))).toEqual(['Carte (Stripe)', 'Prélèvement SEPA', 'PayPal', 'Crypto (CoinGate)', 'Mobile money (Flutterwave)', 'Mobile money (lien)', 'Espèces', 'Chèque', 'Virement', 'En nature', 'Abandon de frais']);
    expect(staffMeansLabel('flutterwave')).toBe('Mobile money (Flutterwave)');
    expect(staffMeansLabel('bitcoin')).toBe('bitcoin');
    expect(MEANS.map((m) => shortMeansLabel(m))).toEqual(['Carte', 'Prélèvement SEPA', 'PayPal', 'Crypto', 'Mobile money', 'Mobile money', 'Espèces', 'Chèque', 'Virement', 'En nature', 'Abandon de frais']);
    expect(shortMeansLabel('stripe')).toBe('Carte');
    expect(shortMeansLabel('bitcoin')).toBe('bitcoin');
  });

  it('says each means offered online in each form’s words: the donate page’s tabs and the joining form’s choices', () => {
    const online = ['card', 'paypal', 'crypto', 'mobileMoney'] as const;
    expect(online.map((m) => choiceLabel(m, 'donateTab'))).toEqual(['donate.tabCard', 'donate.tabPaypal', 'donate.tabCrypto', 'donate.tabMobile']);
    expect(online.map((m) => choiceLabel(m, 'join'))).toEqual(['join.methodCard', 'join.methodPaypal', 'join.methodCrypto', 'join.methodMobileMoney']);
  });

  it('says each stored payment’s means as a tax receipt prints its "mode de versement"', () => {
    expect(MEANS.filter((m) => m !== 'sepa').map((m) => receiptMeansLabel({ provider: storedAs(m) }))).toEqual(['Carte bancaire', 'PayPal', 'Cryptomonnaie (CoinGate)', 'Mobile money (Flutterwave)', 'Mobile money', 'Espèces', 'Chèque', 'Virement', 'Remise de biens', 'Abandon de frais']);
    // Every value the ledger stores has its receipt's word (none printed as the raw value).
    for (const p of PAYMENT_MEANS) expect(receiptMeansLabel({ provider: p })).not.toBe(p);
    expect(receiptMeansLabel({ provider: 'stripe', method: 'sepa_debit' })).toBe('Prélèvement SEPA');
    expect(receiptMeansLabel({ provider: 'stripe', method: 'card' })).toBe('Carte bancaire');
    expect(receiptMeansLabel({ provider: 'cheque', method: null })).toBe('Chèque');
    expect(receiptMeansLabel({ provider: 'bitcoin' })).toBe('bitcoin');
  });

  it('knows the CFA francs, whose fixed parity converts an amount in euros exactly', () => {
    expect(['XOF', 'XAF', 'GHS', 'KES', 'EUR', 'xof', '', null, undefined].map(isCfa)).toEqual([true, true, false, false, false, false, false, false, false]);
  });
});
