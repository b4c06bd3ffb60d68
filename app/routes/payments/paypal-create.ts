import type { Route } from './+types/paypal-create';
import { parseEuroAmount } from '~/domain/donations/money';
import { ProviderError } from '~/domain/donations/providers/types';
import { startPayPalDonation } from '~/domain/donations/service.server';
import { NEWSLETTER_FIELD, newsletterTicked } from '~/domain/donors/consent';
import { detectLang } from '~/lib/i18n.server';
import { donorTaxDetails } from '~/domain/receipts/donate-form.server';
import { donationApi, json, readBody } from './api.server';
import { designationOf } from '~/domain/giving/choices.server';

/** POST /api/donations/paypal/orders — the PayPal buttons' createOrder. */
export async function action({ request, context }: Route.ActionArgs) {
  const api = await donationApi(request, context, 'paypal');
  if ('response' in api) return api.response;
  const body = await readBody(request);
  const amount = parseEuroAmount(body.amount);
  if (!amount.ok) return json({ error: amount.error === 'missing' ? 'donate.missingAmount' : 'donate.invalidAmount' }, 400);
  const tax = await donorTaxDetails(api.deps.db, (k) => String(body[k] ?? '').slice(0, 300));
  if (!tax.ok) return json({ error: 'taxReceipt.errorsTitle', fields: tax.errors.map((e) => e.field).join(',') }, 400);
  const { lang } = detectLang(request);
  const gift = await designationOf(body.campaign, lang);
  if ('error' in gift) return json({ error: gift.error, vars: gift.vars }, 400);
  try {
    const { orderId } = await startPayPalDonation(api.deps, { amountCents: amount.cents, lang, gift, taxDetails: tax.taxDetails, newsletter: newsletterTicked(body[NEWSLETTER_FIELD]) });
    return json({ id: orderId });
  } catch (e) {
    if (e instanceof ProviderError) return json({ error: 'donate.paymentError', detail: 'donate.providerDown' }, 502);
    throw e;
  }
}
