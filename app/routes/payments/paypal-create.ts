import type { Route } from './+types/paypal-create';
import { giftApi, json } from './api.server';

/** POST /api/donations/paypal/orders — the PayPal buttons' createOrder: the gift is started, PayPal's order id answered. */
export async function action({ request, context }: Route.ActionArgs) {
  const api = await giftApi(request, context, 'paypal');
  if ('response' in api) return api.response;
  return json({ id: api.started.donation.provider_ref });
}
