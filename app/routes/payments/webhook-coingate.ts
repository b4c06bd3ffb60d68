import type { Route } from './+types/webhook-coingate';
import { donationDeps } from '~/domain/donations/deps.server';
import { handleCoinGateCallback } from '~/domain/donations/service.server';
import { parseBody, postOnly, webhook } from './api.server';

/** POST /webhooks/coingate: CoinGate's callback (form-encoded or JSON); trusted only after a re-fetch of the order. */
export async function action({ request }: Route.ActionArgs) {
  return webhook(request, async (raw) => handleCoinGateCallback(await donationDeps(request), new URLSearchParams(parseBody(raw, request.headers.get('content-type')))));
}

export const loader = postOnly;
