import type { Route } from './+types/webhook-coingate';
import { parseBody, postOnly, webhook } from './api.server';

/** POST /webhooks/coingate: CoinGate's callback (form-encoded or JSON, read as a form); trusted only after a re-fetch of the order. */
export async function action({ request }: Route.ActionArgs) {
  return webhook(request, 'coingate', (raw) => new URLSearchParams(parseBody(raw, request.headers.get('content-type'))).toString());
}

export const loader = postOnly;
