import type { Route } from './+types/mobile-start';
import { giftApi, json } from './api.server';

/**
 * POST /api/donations/mobile-money — records the attempt and returns what the inline checkout is
 * opened with (our tx_ref, the amount in the configured currency, the public key).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const api = await giftApi(request, context, 'mobileMoney');
  if ('response' in api) return api.response;
  const { donation, form } = api.started;
  // Campaigns (#16): the designation rides in the checkout's `meta`, compared on verification.
  const meta = donation.campaign_id ? { campaign_id: donation.campaign_id } : undefined;
  const customer = { name: form.name, email: form.email, phone_number: form.phone };
  return json({ txRef: donation.provider_ref, amount: donation.amount_minor, currency: donation.currency, publicKey: api.deps.settings.mobileMoney.publicKey, customer, meta });
}
