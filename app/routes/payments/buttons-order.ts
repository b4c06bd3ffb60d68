import type { Route } from './+types/buttons-order';
import { giftApi, json } from './api.server';

/**
 * POST /api/donations/paypal/orders — the PayPal tab's buttons ask for an order (their
 * createOrder): the gift is started like any other (startGift), and the provider's reference of
 * the attempt answered for the buttons to open.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const api = await giftApi(request, context, 'paypal');
  if ('response' in api) return api.response;
  return json({ id: api.started.donation.provider_ref });
}
