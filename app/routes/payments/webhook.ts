import type { Route } from './+types/webhook';
import { postOnly, webhook } from './api.server';

/**
 * POST /webhooks/{provider}: each provider's notifications, at the address its dashboard is given
 * (/webhooks/stripe, /webhooks/paypal, …). The provider the address names reads and authenticates
 * the raw body (its signature, token or shared hash) and the ledger applies what it says; an
 * address that names no provider with webhooks answers 404.
 */
export async function action({ request, params }: Route.ActionArgs) {
  return webhook(request, params.provider);
}

export const loader = postOnly;
