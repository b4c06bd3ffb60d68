import type { DonationStatus, PaymentInstrument } from '../status';

/** What a provider says about one payment, after we asked it (never taken from a browser). */
export interface VerifiedPayment {
  /** The provider's reference for the attempt (session, order, transaction). */
  ref: string;
  /** null: nothing final yet. */
  status: DonationStatus | null;
  amountMinor: number | null;
  currency: string | null;
  donorName?: string | null;
  donorEmail?: string | null;
  /** Payment intent or subscription (Stripe), kept to match later events. */
  secondaryRef?: string | null;
  /** The campaign the provider's metadata names (undefined: this provider carries none). Checked, never stored. */
  designation?: string | null;
  /** What the payer paid with, where the provider takes several means (Stripe: card, SEPA debit; ADR 029). */
  instrument?: PaymentInstrument;
}

/** A provider that could not be reached or answered something we cannot read. */
export class ProviderError extends Error {
  constructor(
    public readonly provider: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A start refused before the provider is asked: this process already asked it as often as it takes this second. */
export class ProviderBusy extends ProviderError {
  /** Seconds after which a new try is welcome. */
  readonly retryAfter = 1;
}

/**
 * The origin a provider may send the donor back to, or call back: a trusted one only (ADR 010).
 * A return address built from a forged Host would make our checkout page a way to the attacker's.
 */
export function returnOrigin(publicUrl: string | undefined, provider: string): string {
  if (!publicUrl) throw new ProviderError(provider, 'PUBLIC_URL n’est pas configurée');
  return publicUrl;
}

/** A URL's origin; undefined when it is empty or not a URL. */
export function originOf(url: string | undefined | null): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}

/** Origins without the empty ones, each once. */
export const origins = (...xs: (string | undefined)[]): string[] => [...new Set(xs.filter((x): x is string => Boolean(x)))];

/** Fetches JSON with a timeout; any transport error, non-2xx or non-JSON answer is a ProviderError. */
export async function fetchJson(provider: string, url: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<any> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 15_000) });
  } catch (e) {
    throw new ProviderError(provider, `service injoignable (${e instanceof Error ? e.message : String(e)})`);
  }
  const body = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ProviderError(provider, `réponse illisible (HTTP ${res.status})`);
  }
  if (!res.ok) {
    const msg = (json as { message?: string; error_description?: string; reason?: string })?.message ?? (json as { error_description?: string })?.error_description ?? `HTTP ${res.status}`;
    throw new ProviderError(provider, String(msg).slice(0, 200));
  }
  if (!json || typeof json !== 'object') throw new ProviderError(provider, 'réponse illisible');
  return json;
}
