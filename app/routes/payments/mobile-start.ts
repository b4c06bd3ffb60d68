import type { Route } from './+types/mobile-start';
import { DONOR_EMAIL } from '~/domain/donations/donor-email';
import { exponent, parseEuroAmount } from '~/domain/donations/money';
import { ProviderError } from '~/domain/donations/providers/types';
import { startMobileDonation } from '~/domain/donations/service.server';
import { NEWSLETTER_FIELD, newsletterTicked } from '~/domain/donors/consent';
import { detectLang } from '~/lib/i18n.server';
import { donorTaxDetails } from '~/domain/receipts/donate-form.server';
import { donationApi, json, readBody } from './api.server';
import { designationOf } from '~/domain/giving/choices.server';

const PHONE = /^\+?[0-9 ().-]{6,20}$/;

/**
 * POST /api/donations/mobile-money — records the attempt and returns what the inline checkout is
 * opened with (our tx_ref, the amount in the configured currency, the public key).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const api = await donationApi(request, context, 'mobileMoney');
  if ('response' in api) return api.response;
  const s = api.deps.settings.mobileMoney;
  if (s.integrationType !== 'api') return json({ error: 'donate.unavailable' }, 400);
  const body = await readBody(request);
  const name = (body.name ?? '').trim().slice(0, 120);
  const email = (body.email ?? '').trim().toLowerCase();
  const phone = (body.phone ?? '').trim();
  if (!name || !DONOR_EMAIL.test(email) || !PHONE.test(phone)) return json({ error: 'donate.mobileRequired' }, 400);
  const amount = parseEuroAmount(body.amount);
  if (!amount.ok) return json({ error: amount.error === 'missing' ? 'donate.mobileRequired' : 'donate.invalidAmount' }, 400);
  const tax = await donorTaxDetails(api.deps.db, (k) => String(body[k] ?? '').slice(0, 300));
  if (!tax.ok) return json({ error: 'taxReceipt.errorsTitle', fields: tax.errors.map((e) => e.field).join(',') }, 400);
  const cfa = s.currency === 'XOF' || s.currency === 'XAF';
  // CFA francs: the donor typed euros (converted at the parity). Other currencies: typed in that
  // currency, whose minor unit may be the whole unit (UGX, RWF: no decimals allowed).
  const zeroDecimal = exponent(s.currency) === 0;
  if (!cfa && zeroDecimal && amount.cents % 100 !== 0) return json({ error: 'donate.invalidAmount' }, 400);
  const localMinor = zeroDecimal ? amount.cents / 100 : amount.cents;
  const { lang } = detectLang(request);
  const gift = await designationOf(body.campaign, lang);
  if ('error' in gift) return json({ error: gift.error, vars: gift.vars }, 400);
  try {
    const r = await startMobileDonation(api.deps, { ...(cfa ? { eurCents: amount.cents } : { localMinor }), name, email, phone, lang, gift, taxDetails: tax.taxDetails, newsletter: newsletterTicked(body[NEWSLETTER_FIELD]) });
    // Campaigns (#16): the designation rides in the checkout's `meta`, compared on verification.
    const meta = gift.campaignId ? { campaign_id: gift.campaignId } : undefined;
    return json({ txRef: r.txRef, amount: r.amountMinor, currency: r.currency, publicKey: s.publicKey, customer: { name, email, phone_number: phone }, meta });
  } catch (e) {
    if (e instanceof ProviderError) return json({ error: 'donate.invalidAmount' }, 400);
    throw e;
  }
}
