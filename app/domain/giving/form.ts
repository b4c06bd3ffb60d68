import { z } from 'zod';
import { readDedication, type DedicationKind } from '~/domain/campaigns/giving';
import { DONOR_EMAIL, readOptionalEmail } from '~/domain/donations/donor-email';
import { parseEuroAmount, type AmountError } from '~/domain/donations/money';
import { NEWSLETTER_FIELD, newsletterTicked } from '~/domain/donors/consent';
import { readTaxDetails, type TaxDetails, type TaxFieldError } from '~/domain/receipts/donor-details';
import type { MessageKey } from '~/lib/i18n';

/**
 * The donate form, once (issue 30, ADR 019): what each method can carry (METHOD_RULES, the one
 * place saying so) and the Zod schema that reads a posted form by those rules. The page's action
 * and the PayPal / mobile money API parse with it on the server (startGift, start.server.ts); the
 * page offers only what the rules allow; its script (app/enhance/donate.ts) checks the same schema
 * before asking the server. Shared with the browser: no server imports. What needs the database
 * (a campaign open today, a preset's amount) is startGift's.
 */

/** The ways to give: the page's tabs, and the payment link that mobile money may be instead of its checkout. */
export const GIFT_METHODS = ['card', 'crypto', 'paypal', 'mobileMoney', 'mobileLink'] as const;
export type GiftMethod = (typeof GIFT_METHODS)[number];
/** The donate page's tabs, in their order (mobile money's tab is its checkout or its payment link). */
export const TAB_METHODS = ['card', 'paypal', 'crypto', 'mobileMoney'] as const satisfies readonly GiftMethod[];
export type TabMethod = (typeof TAB_METHODS)[number];

export interface MethodRule {
  /** How the amount is given: a preset or a typed amount, a typed amount, or none (the link's own page asks). */
  amount: 'presetOrTyped' | 'typed' | 'none';
  /** A monthly gift (a subscription at the provider). */
  monthly: boolean;
  /** The donor may add the processing fees. */
  fees: boolean;
  /** A campaign, and a dedication, recorded with the attempt (a link brings nothing back to record against). */
  designation: boolean;
  dedication: boolean;
  /** The "Reçu fiscal" fieldset (a link's payment is never verified, so never receipted). */
  taxReceipt: boolean;
  /** What the donor tells us about themselves: nothing, an optional address, or name, address and phone. */
  contact: 'none' | 'optionalEmail' | 'nameEmailPhone';
}

/**
 * What each method can carry. Monthly gifts are Stripe subscriptions; fees are added by the amount
 * our server asks the hosted checkout for (card, crypto), while PayPal's buttons and the mobile
 * money checkout show the donor the amount they typed, so they do not offer to cover fees.
 */
export const METHOD_RULES: Record<GiftMethod, MethodRule> = {
  card: { amount: 'presetOrTyped', monthly: true, fees: true, designation: true, dedication: true, taxReceipt: true, contact: 'none' },
  crypto: { amount: 'typed', monthly: false, fees: true, designation: true, dedication: true, taxReceipt: true, contact: 'optionalEmail' },
  paypal: { amount: 'typed', monthly: false, fees: false, designation: true, dedication: true, taxReceipt: true, contact: 'none' },
  mobileMoney: { amount: 'typed', monthly: false, fees: false, designation: true, dedication: true, taxReceipt: true, contact: 'nameEmailPhone' },
  mobileLink: { amount: 'none', monthly: false, fees: false, designation: false, dedication: false, taxReceipt: false, contact: 'none' },
};

export const GIVING_FIELDS = ['campaign', 'coverFees', 'dedicationKind', 'dedicationName', 'dedicationMessage', 'dedicationEmail'] as const;
const PHONE = /^\+?[0-9 ().-]{6,20}$/;

export const AMOUNT_MESSAGE: Record<AmountError, MessageKey> = { missing: 'donate.missingAmount', invalid: 'donate.invalidAmount', too_small: 'donate.invalidAmount', too_large: 'donate.invalidAmount' };

/** A gift as the form describes it, before the database's word (campaign open, preset amount). */
export interface GiftForm {
  method: GiftMethod;
  /** Euro cents typed (or, for mobile money, cents of its currency), or the preset chosen; null for a link. */
  amount: { cents: number } | { preset: string } | null;
  monthly: boolean;
  coverFees: boolean;
  /** A campaign's slug, '' for a general gift. */
  campaign: string;
  dedication: { kind: DedicationKind; name: string; message: string | null; email: string | null } | null;
  /** The receipt's details; null when none is wanted or receipts are off. */
  taxDetails: TaxDetails | null;
  newsletter: boolean;
  email: string | null;
  name: string;
  phone: string;
}

/** The error a schema issue carries: a message key, and for the receipt's fieldset which fields. */
export type GiftFormError = { error: MessageKey; tax?: { errors: TaxFieldError[]; values: Record<string, string> } };

const field = z.string().catch('').default('');

/**
 * The donate form of `method`, read as flat strings (a posted form or the script's JSON body).
 * `receipts`: whether receipts are offered (the receipt's fieldset is then read, and crypto needs
 * an address to send one to). The first issue is the one shown, in this order: the receipt's
 * details, an option the method cannot carry, the dedication, the amount, the donor's contact.
 */
export function giftFormSchema(method: GiftMethod, { receipts, ifi = false }: { receipts: boolean; ifi?: boolean }) {
  const rule = METHOD_RULES[method];
  return z.record(z.string(), field).transform((v, ctx): GiftForm => {
    const get = (k: string) => v[k] ?? '';
    const fail = (error: MessageKey, path: string, tax?: GiftFormError['tax']) => {
      ctx.addIssue({ code: 'custom', message: error, path: [path], params: tax ? { tax } : undefined });
      return z.NEVER;
    };
    let taxDetails: TaxDetails | null = null;
    if (rule.taxReceipt && receipts) {
      const tax = readTaxDetails((k) => get(k).slice(0, 300), { ifi });
      if (!tax.ok) return fail('taxReceipt.errorsTitle', 'tax', { errors: tax.errors, values: tax.values });
      taxDetails = tax.details;
    }
    const monthly = get('frequency') === 'monthly';
    const coverFees = get('coverFees') === 'on';
    const campaign = get('campaign').trim().slice(0, 100);
    if ((monthly && !rule.monthly) || (coverFees && !rule.fees) || (campaign && !rule.designation)) return fail('donate.unavailable', 'method');
    let dedication: GiftForm['dedication'] = null;
    if (rule.dedication) {
      const d = readDedication({ kind: get('dedicationKind'), name: get('dedicationName'), message: get('dedicationMessage'), email: get('dedicationEmail') });
      if (!d.ok) return fail(d.error, 'dedication');
      dedication = d.dedication;
    } else if (get('dedicationKind')) return fail('donate.unavailable', 'method');
    const email = readOptionalEmail(get('email').slice(0, 254));
    const contact = { email: email.ok ? email.email : null, name: get('name').trim().slice(0, 120), phone: get('phone').trim() };
    // Mobile money: the checkout needs the payer's name, address and phone, asked with the amount.
    if (rule.contact === 'nameEmailPhone' && (!contact.name || !DONOR_EMAIL.test(contact.email ?? '') || !PHONE.test(contact.phone) || get('amount').trim() === '')) return fail('donate.mobileRequired', 'contact');
    let amount: GiftForm['amount'] = null;
    if (rule.amount !== 'none') {
      const typed = get('amount');
      const preset = get('preset');
      if (rule.amount === 'presetOrTyped' && typed.trim() === '') {
        if (!preset) return fail('donate.missingAmount', 'amount');
        amount = { preset: preset.slice(0, 200) };
      } else {
        const a = parseEuroAmount(typed);
        if (!a.ok) return fail(AMOUNT_MESSAGE[a.error], 'amount');
        amount = { cents: a.cents };
      }
    }
    if (rule.contact === 'optionalEmail') {
      if (!email.ok) return fail('donate.invalidEmail', 'email');
      // The receipt is sent by email: a donor who asks for one gives an address.
      if (taxDetails && !email.email) return fail('donate.cryptoEmailRequired', 'email');
    }
    return { method, amount, monthly, coverFees, campaign, dedication, taxDetails, newsletter: newsletterTicked(get(NEWSLETTER_FIELD)), ...contact };
  });
}

/** Reads a donate form: the gift it describes, or the first error in the donor's words (a message key). */
export function readGiftForm(method: GiftMethod, fields: Record<string, string>, opts: { receipts: boolean; ifi?: boolean }): { ok: true; form: GiftForm } | ({ ok: false } & GiftFormError) {
  const r = giftFormSchema(method, opts).safeParse(fields);
  if (r.success) return { ok: true, form: r.data };
  const issue = r.error.issues[0] as { message: string; params?: Pick<GiftFormError, 'tax'> };
  return { ok: false, error: issue.message as MessageKey, ...(issue.params?.tax ? { tax: issue.params.tax } : {}) };
}
