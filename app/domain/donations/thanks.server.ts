import { announceRefund, giftReceiptForMail, type CancellationCause } from '~/domain/receipts/mail.server';
import { DISPUTED_RECEIPT } from '~/domain/receipts/register.server';
import { dateTimeFormat } from '~/lib/intl';
import { messagesFor } from '~/lib/i18n.server';
import { isLang, translate, type Lang } from '~/lib/i18n';
import { escapeMailHtml as esc, mailConfigFor, sendMail } from '~/lib/mail.server';
import type { DonationDeps } from './context.server';
import type { PaymentEvent } from './events.server';
import { claimReceipt, type Donation } from './ledger.server';
import { formatMoney } from '~/lib/currency';

/**
 * The thank-you mail of a gift that just succeeded, once, in the donor's language, with its tax
 * receipt when it has one. The one claim is the gift's (`claimReceipt`): the receipt it carries is
 * then recorded as sent, never claimed a second time.
 */
export async function sendReceipt(deps: Pick<DonationDeps, 'db' | 'env' | 'publicUrl' | 'storage'>, donation: Donation): Promise<void> {
  if (!donation.donor_email) return;
  if (!(await claimReceipt(deps.db, donation.id))) return;
  const lang: Lang = isLang(donation.language) ? donation.language : 'fr';
  const m = messagesFor(lang);
  const amount = formatMoney(donation.amount_minor, donation.currency, lang);
  const date = dateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(donation.succeeded_at ?? donation.updated_at));
  const vars = { name: donation.donor_name || m.receipt.friend, amount, date, reference: donation.id };
  // The tax receipt (when the gift has one) rides along: a sentence in the donor's language, the PDF in French.
  const tax = await giftReceiptForMail(deps.db, donation.id, lang, deps.storage);
  const lines = [translate(m, 'receipt.greeting', vars), '', translate(m, 'receipt.body', vars), translate(m, 'receipt.reference', vars), ...(tax ? [tax.line] : []), '', translate(m, 'receipt.thanks', vars)];
  await sendMail(deps.db, mailConfigFor(deps.env, deps.publicUrl), {
    to: donation.donor_email,
    subject: translate(m, 'receipt.subject', vars),
    text: lines.join('\n'),
    html: lines.map((l) => (l ? `<p>${esc(l)}</p>` : '')).join('\n'),
    ...(tax ? { attachments: [tax.attachment] } : {}),
  });
}

/** The subscriber: a gift's success is thanked (dues will have their own mail). */
export async function thankForGift(deps: DonationDeps, e: PaymentEvent): Promise<void> {
  if (e.type === 'payment.succeeded' && e.purpose === 'gift') await sendReceipt(deps, e.payment);
}

/**
 * The subscriber: after a refund (a gift's or dues', or a lost dispute's: its receipts say why) or
 * an Admin's taking back a hand-recorded payment cancelled receipts, the corrected annual receipts go out and every Admin is told why.
 */
export async function announceCancelledReceipts(deps: DonationDeps, e: PaymentEvent): Promise<void> {
  if (!e.cancelledReceipts.length) return;
  // Receipts are the receipts area's whatever the purpose: dues refunded or an entry taken back are told too.
  const cause: CancellationCause = e.type === 'payment.cancelled' ? 'entry-voided' : e.cancelledReceipts[0].cancel_reason === DISPUTED_RECEIPT ? 'payment-disputed' : e.purpose === 'dues' ? 'dues-refunded' : 'gift-refunded';
  await announceRefund(deps.db, mailConfigFor(deps.env, deps.publicUrl), { cancelled: e.cancelledReceipts, reissued: e.reissuedReceipts }, `${deps.publicUrl ?? ''}/admin/receipts`, deps.storage, cause);
}
