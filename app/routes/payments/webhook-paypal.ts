import type { Route } from './+types/webhook-paypal';
import { postOnly, webhook } from './api.server';

/** POST /webhooks/paypal: counts only after PayPal's verify-webhook-signature says SUCCESS; the order is re-fetched. */
export async function action({ request }: Route.ActionArgs) {
  return webhook(request, 'paypal');
}

export const loader = postOnly;
