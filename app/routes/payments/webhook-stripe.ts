import type { Route } from './+types/webhook-stripe';
import { postOnly, webhook } from './api.server';

/** POST /webhooks/stripe: the raw body is read as text, so the signature is checked over the exact bytes. */
export async function action({ request }: Route.ActionArgs) {
  return webhook(request, 'stripe');
}

export const loader = postOnly;
