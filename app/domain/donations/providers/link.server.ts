import type { PaymentProvider } from './provider';
import { origins, originOf, ProviderError } from './types';

/**
 * Mobile money by payment link: nobody can verify these; the attempt is recorded as unverifiable
 * (no amount, never re-checked) and the donor sent on to the configured link.
 */
export const linkProvider: PaymentProvider = {
  name: 'mobile_link',
  monthly: false,
  cancelledOnReturn: false,
  /** The payment link set in the payment settings. */
  browser: ({ settings }) => ({ hosted: origins(originOf(settings.mobileMoney.paymentUrl)) }),
  plan(deps) {
    const url = deps.settings.mobileMoney.paymentUrl;
    if (!/^https?:\/\//.test(url)) throw new ProviderError('mobile_link', 'lien de paiement absent');
    return { amountMinor: 0, currency: 'EUR', eurCents: null, verifiable: false, url };
  },
};
