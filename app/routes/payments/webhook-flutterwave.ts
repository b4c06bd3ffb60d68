import type { Route } from './+types/webhook-flutterwave';
import { donationDeps } from '~/domain/donations/deps.server';
import { handleFlutterwaveWebhook } from '~/domain/donations/service.server';
import { postOnly, webhook } from './api.server';

/** POST /webhooks/flutterwave: the verif-hash header must match; the transaction is re-verified. */
export async function action({ request }: Route.ActionArgs) {
  return webhook(request, async (raw) => handleFlutterwaveWebhook(await donationDeps(request), raw, request.headers.get('verif-hash')));
}

export const loader = postOnly;
