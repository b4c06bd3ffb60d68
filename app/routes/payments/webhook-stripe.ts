import type { Route } from './+types/webhook-stripe';
import { donationDeps } from '~/domain/donations/deps.server';
import { handleStripeWebhook } from '~/domain/donations/service.server';

/** POST /webhooks/stripe: the raw body is read as text, so the signature is checked over the exact bytes. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST') return new Response('Method Not Allowed', { status: 405 });
  const raw = await request.text();
  const out = await handleStripeWebhook(await donationDeps(request), raw, request.headers.get('stripe-signature'));
  return new Response(out.message, { status: out.status, headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' } });
}

export function loader() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } });
}
