/**
 * The mobile money tab's inline checkout in the browser: Flutterwave's v3.js (loaded by the donate
 * page's script when the tab is open), opened for an attempt our server started. Flutterwave calls
 * back with its transaction id, which the payer's browser hands to our callback address, where the
 * server verifies it with Flutterwave (the one road back) before anything counts.
 */
declare global {
  interface Window {
    FlutterwaveCheckout?: (opts: Record<string, unknown>) => { close?: () => void } | void;
  }
}

/** What our server answers when it started the attempt (/api/donations/mobile-money). */
export interface StartedCheckout {
  txRef: string;
  amount: number;
  currency: string;
  publicKey: string;
  customer: Record<string, string>;
  meta?: Record<string, string>;
}

/** Whether the provider's script has loaded and can open its checkout. */
export const checkoutReady = (): boolean => Boolean(window.FlutterwaveCheckout);

/** Opens the checkout; when the payer is done, the browser goes to `callbackPath` with what the provider said. */
export function openCheckout(d: StartedCheckout, shown: { title?: string; description?: string; logo?: string }, callbackPath: string): void {
  window.FlutterwaveCheckout?.({
    public_key: d.publicKey,
    tx_ref: d.txRef,
    amount: d.amount,
    currency: d.currency,
    payment_options: 'mobilemoney,ussd',
    customer: d.customer,
    ...(d.meta ? { meta: d.meta } : {}),
    customizations: shown,
    callback: (resp: { transaction_id?: number | string; tx_ref?: string }) => {
      const q = new URLSearchParams({ tx_ref: d.txRef, transaction_id: String(resp.transaction_id ?? '') });
      window.location.assign(`${callbackPath}?${q}`);
    },
    onclose: () => undefined,
  });
}
