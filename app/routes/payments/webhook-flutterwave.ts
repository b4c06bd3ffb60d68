import type { Route } from './+types/webhook-flutterwave';
import { postOnly, webhook } from './api.server';

/** POST /webhooks/flutterwave: the verif-hash header must match; the transaction is re-verified. */
export async function action({ request }: Route.ActionArgs) {
  return webhook(request, 'flutterwave');
}

export const loader = postOnly;
