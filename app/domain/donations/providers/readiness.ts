import type { PaymentSettingsForm, SecretField } from './settings';

/**
 * Whether payments can be taken (ADR 037, the setup checklist): some means on with the keys it
 * needs — in a provider's test mode or live —, and whether one of them takes real money (live
 * keys, live mode, a payment link). Read from the payment settings, never from a click.
 */
export function paymentReadiness(s: PaymentSettingsForm & { secrets: Partial<Record<SecretField, string>> }): { configured: boolean; live: boolean } {
  const key = (f: SecretField) => s.secrets[f] ?? '';
  const means = [
    { on: s.stripe.enabled && Boolean(key('stripe.secretKey')), live: /^(sk|rk)_live_/.test(key('stripe.secretKey')) },
    { on: s.paypal.enabled && Boolean(s.paypal.clientId && key('paypal.clientSecret')), live: s.paypal.mode === 'live' },
    { on: s.coingate.enabled && Boolean(key('coingate.authToken')), live: s.coingate.mode === 'live' },
    s.mobileMoney.integrationType === 'link'
      ? { on: s.mobileMoney.enabled && Boolean(s.mobileMoney.paymentUrl), live: true }
      : { on: s.mobileMoney.enabled && Boolean(key('mobileMoney.secretKey')), live: !/_TEST/i.test(key('mobileMoney.secretKey')) },
  ].filter((m) => m.on);
  return { configured: means.length > 0, live: means.some((m) => m.live) };
}
