import type { Route } from './+types/paypal-capture';
import { ProviderError } from '~/domain/donations/providers/types';
import { capturePayPalDonation } from '~/domain/donations/service.server';
import { captureApi, json } from './api.server';

/** POST /api/donations/paypal/orders/:orderId/capture — the buttons' onApprove; says where to go next. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const api = await captureApi(request, context);
  if ('response' in api) return api.response;
  try {
    const donation = await capturePayPalDonation(api.deps, params.orderId);
    if (!donation) return json({ error: 'donate.paypalError', redirect: '/payment/cancel' }, 404);
    if (donation.status === 'succeeded') return json({ redirect: `/payment/success?d=${donation.id}` });
    return json({ error: 'donate.paypalError', redirect: `/payment/cancel?d=${donation.id}` }, 402);
  } catch (e) {
    if (e instanceof ProviderError) return json({ error: 'donate.paypalError', redirect: '/payment/cancel' }, 502);
    throw e;
  }
}
