import type { Route } from './+types/webhook-coingate';
import { donationDeps } from '~/domain/donations/deps.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { handleCoinGateCallback } from '~/domain/donations/service.server';

/** POST /webhooks/coingate: CoinGate's callback (form-encoded); trusted only after a re-fetch. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST') return new Response('Method Not Allowed', { status: 405 });
  const raw = (await request.text()).slice(0, 20_000);
  const form = (request.headers.get('content-type') ?? '').includes('json') ? new URLSearchParams(safeJson(raw)) : new URLSearchParams(raw);
  try {
    const out = await handleCoinGateCallback(await donationDeps(request), form);
    return new Response(out.message, { status: out.status, headers: { 'Content-Type': 'text/plain' } });
  } catch (e) {
    // CoinGate could not be asked: answer an error so that it retries the callback later.
    if (e instanceof ProviderError) return new Response('provider unavailable', { status: 503 });
    throw e;
  }
}

function safeJson(raw: string): Record<string, string> {
  try {
    const v = JSON.parse(raw) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));
  } catch {
    return {};
  }
}

export function loader() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } });
}
