import type { Route } from './+types/webhook-stripe';
import { donationDeps } from '~/domain/donations/deps.server';
import { handleStripeWebhook } from '~/domain/donations/service.server';
import { postOnly, webhook } from './api.server';

/** POST /webhooks/stripe: the raw body is read as text, so the signature is checked over the exact bytes. */
export async function action({ request }: Route.ActionArgs) {
  return webhook(request, async (raw) => handleStripeWebhook(await donationDeps(request), raw, request.headers.get('stripe-signature')));
}

export const loader = postOnly;
