import type { Route } from './+types/webhook-paypal';
import { donationDeps } from '~/domain/donations/deps.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { handlePayPalWebhook } from '~/domain/donations/service.server';

/** POST /webhooks/paypal: counts only after PayPal's verify-webhook-signature says SUCCESS. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST') return new Response('Method Not Allowed', { status: 405 });
  const raw = (await request.text()).slice(0, 100_000);
  try {
    const out = await handlePayPalWebhook(await donationDeps(request), raw, request.headers);
    return new Response(out.message, { status: out.status, headers: { 'Content-Type': 'text/plain' } });
  } catch (e) {
    if (e instanceof ProviderError) return new Response('provider unavailable', { status: 503 });
    throw e;
  }
}

export function loader() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } });
}
