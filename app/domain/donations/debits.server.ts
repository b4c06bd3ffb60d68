import type { MessageKey } from '~/lib/i18n';
import { siteUrl } from '~/lib/lang-path';
import { formatMoney } from '~/lib/currency';
import type { DonationDeps } from './context.server';
import { langOf, sendDonorMail, spaceUrl } from './donor-mail.server';
import type { PaymentEvent } from './events.server';
import { findBySecondaryRef, type Donation } from './ledger.server';
import { giftPastDue } from './monthly.server';
import type { ProviderName } from './status';

/**
 * What a direct debit's donor is told (ADR 029), in their language, once: the ledger moves a gift
 * to processing or from it once, and publishes only that move. The success mail, with its receipt,
 * is the one every gift gets (thanks.server.ts).
 */

/** The payment methods whose money comes days after the payer's yes (SEPA direct debit). */
export const DEBIT_METHODS: readonly string[] = ['sepa_debit'];

const isDebit = (d: Donation) => d.method !== null && DEBIT_METHODS.includes(d.method);

/** The mandate is signed, the debit on its way: "we received your mandate" (with the account and the mandate when Stripe told us both), and when the money comes, the receipt. */
export async function tellMandateReceived(deps: DonationDeps, d: Donation): Promise<void> {
  if (!d.donor_email) return;
  const lang = langOf(d.language);
  const mandate = d.account_last4 && d.mandate_ref ? { last4: d.account_last4, reference: d.mandate_ref } : null;
  const lines: MessageKey[] = [d.frequency === 'monthly' ? 'donorMail.mandateMonthly' : 'donorMail.mandateOnce', ...(mandate ? (['donorMail.mandateDetails'] as const) : []), 'donorMail.mandateDelay'];
  await sendDonorMail(deps, d.donor_email, lang, 'donorMail.mandateSubject', lines, { amount: formatMoney(d.amount_minor, d.currency, lang), ...mandate });
}

/**
 * The debit failed: a one-off gift's donor is given the donate page to give again; a monthly
 * gift's, their donor space, where "Mettre à jour mon compte" opens the provider's page, and the
 * gift is marked past due. Nothing is taken, no receipt is issued.
 */
export async function tellDebitFailed(deps: DonationDeps, d: Donation): Promise<void> {
  const monthly = d.frequency === 'monthly';
  if (monthly) await giftPastDue(deps.db, d);
  if (!d.donor_email) return;
  const lang = langOf(d.language);
  const url = monthly ? spaceUrl(deps.publicUrl, lang) : siteUrl(deps.publicUrl, lang, '/faire-un-don');
  const lines: MessageKey[] = monthly ? ['donorMail.debitFailedMonthly', 'donorMail.debitUpdateAccount'] : ['donorMail.debitFailedOnce', 'donorMail.debitGiveAgain'];
  await sendDonorMail(deps, d.donor_email, lang, 'donorMail.debitFailedSubject', lines, { amount: formatMoney(d.amount_minor, d.currency, lang), url });
}

/**
 * Whether a failed payment is a gift's own debit (a one-off, or the checkout's first instalment),
 * not a later instalment's: those are the register's (monthly.server.ts), which tells the donor.
 */
async function ownDebit(deps: DonationDeps, d: Donation): Promise<boolean> {
  if (d.frequency !== 'monthly') return true;
  return d.secondary_ref !== null && (await findBySecondaryRef(deps.db, d.provider as ProviderName, d.secondary_ref))?.id === d.id;
}

/** The subscriber: a gift's debit news, told to its donor. */
export async function tellDebitNews(deps: DonationDeps, e: PaymentEvent): Promise<void> {
  if (e.purpose !== 'gift' || !isDebit(e.payment)) return;
  if (e.type === 'payment.processing') await tellMandateReceived(deps, e.payment);
  else if (e.type === 'payment.failed' && (await ownDebit(deps, e.payment))) await tellDebitFailed(deps, e.payment);
}
