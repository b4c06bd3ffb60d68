import type { Route } from './+types/buttons-approve';
import { approvedInPage } from '~/domain/donations/returns.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { captureApi, json } from './api.server';
import { inRequestLang } from '~/lib/i18n.server';

/**
 * POST /api/donations/paypal/orders/:orderId/capture — the PayPal tab's buttons say the payer
 * approved (their onApprove): the one road back confirms it with the provider; the answer says
 * where the page goes next.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const api = await captureApi(request, context);
  if ('response' in api) return api.response;
  // The page the buttons were on named its language (`?lng=`): the next page is in it too.
  const page = (path: string) => inRequestLang(request, path);
  try {
    const donation = await approvedInPage(api.deps, 'paypal', params.orderId);
    if (!donation) return json({ error: 'donate.paypalError', redirect: page('/payment/cancel') }, 404);
    if (donation.status === 'succeeded') return json({ redirect: page(`/payment/success?d=${donation.id}`) });
    return json({ error: 'donate.paypalError', redirect: page(`/payment/cancel?d=${donation.id}`) }, 402);
  } catch (e) {
    if (e instanceof ProviderError) return json({ error: 'donate.paypalError', redirect: page('/payment/cancel') }, 502);
    throw e;
  }
}
