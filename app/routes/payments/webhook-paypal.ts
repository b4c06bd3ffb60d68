import type { Route } from './+types/webhook-paypal';
import { donationDeps } from '~/domain/donations/deps.server';
import { handlePayPalWebhook } from '~/domain/donations/service.server';
import { postOnly, webhook } from './api.server';

/** POST /webhooks/paypal: counts only after PayPal's verify-webhook-signature says SUCCESS; the order is re-fetched. */
export async function action({ request }: Route.ActionArgs) {
  return webhook(request, async (raw) => handlePayPalWebhook(await donationDeps(request), raw, request.headers));
}

export const loader = postOnly;
