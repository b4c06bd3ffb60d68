import type { DB } from '~db/index';
import { parisYear } from '~/lib/paris';
import { messagesFor } from '~/lib/i18n.server';
import { isLang, translate, type Lang } from '~/lib/i18n';
import { log } from '~/lib/log.server';
import { escapeMailHtml as esc, sendMail, type Mail, type MailConfig } from '~/lib/mail.server';
import type { Storage } from '~/lib/storage.server';
import { adminEmails } from '~/domain/users/users.server';
import { receiptFileName, renderReceiptPdf } from './pdf.server';
import { claimSending, getReceipt, recordSent, receiptsOfDonation, type Receipt, type RefundCancellation } from './register.server';
import { euroFigures } from './words';

export type ReceiptAttachment = NonNullable<Mail['attachments']>[number];

export async function pdfAttachment(r: Receipt, storage?: Storage): Promise<ReceiptAttachment> {
  return { filename: receiptFileName(r), content: await renderReceiptPdf(r, storage), contentType: 'application/pdf' };
}

/**
 * What the thank-you mail of a gift adds when the gift has a receipt: a sentence in the donor's
 * language and the PDF (in French). The thank-you mail was claimed once (the gift's
 * `receipt_sent_at`, ADR 019); the receipt riding with it is recorded as sent, not claimed again.
 */
export async function giftReceiptForMail(db: DB, donationId: string, lang: Lang, storage?: Storage): Promise<{ line: string; attachment: ReceiptAttachment } | null> {
  const r = (await receiptsOfDonation(db, donationId)).find((x) => x.status === 'issued');
  if (!r) return null;
  await recordSent(db, r.id);
  return { line: translate(messagesFor(lang), 'taxReceipt.mailAttached', { number: r.number }), attachment: await pdfAttachment(r, storage) };
}

/** Mails each annual receipt to its donor, once, in the donor's language. */
export async function mailAnnualReceipts(db: DB, config: MailConfig, receipts: Receipt[], storage?: Storage): Promise<number> {
  let sent = 0;
  for (const r of receipts) {
    if (!r.donor_email || !(await claimSending(db, r.id))) continue;
    const lang: Lang = isLang(r.language) ? r.language : 'fr';
    const m = messagesFor(lang);
    const vars = { number: r.number, year: parisYear(r.paid_at), amount: euroFigures(r.amount_cents) };
    const body = translate(m, 'taxReceipt.annualBody', vars);
    const thanks = translate(m, 'receipt.thanks');
    const result = await sendMail(db, config, {
      to: r.donor_email,
      subject: translate(m, 'taxReceipt.annualSubject', vars),
      text: `${body}\n\n${thanks}`,
      html: `<p>${esc(body)}</p><p>${esc(thanks)}</p>`,
      attachments: [await pdfAttachment(r, storage)],
    });
    if (result.status !== 'failed') sent += 1;
  }
  return sent;
}

/** After a refund cancelled receipts: the corrected annual receipts go to their donors, then every Admin is told. */
/** Why receipts were cancelled, as the Admins' notice says it: a gift or dues refunded, a payment recorded by hand taken back, or a dispute lost. */
export type CancellationCause = 'gift-refunded' | 'dues-refunded' | 'entry-voided' | 'payment-disputed';
const CAUSES: Record<CancellationCause, { sentence: string; subject: string }> = {
  'gift-refunded': { sentence: 'Un don a été remboursé', subject: 'après remboursement' },
  'dues-refunded': { sentence: 'Une cotisation a été remboursée', subject: 'après remboursement' },
  'entry-voided': { sentence: 'Un paiement saisi à la main a été annulé', subject: 'après annulation d’une saisie' },
  'payment-disputed': { sentence: 'Un paiement a été contesté et repris par la banque du payeur', subject: 'après contestation' },
};

export async function announceRefund(db: DB, config: MailConfig, refund: RefundCancellation, adminUrl: string, storage?: Storage, cause: CancellationCause = 'gift-refunded'): Promise<void> {
  await mailAnnualReceipts(db, config, refund.reissued, storage);
  await notifyAdminsOfCancellation(db, config, refund, adminUrl, cause);
}

/** What became of the gifts an annual receipt cancelled by a refund also covered. */
function annualFate(old: Receipt, reissued: Receipt | undefined): string {
  const was = `Le reçu ${old.number} était un reçu annuel récapitulatif : `;
  if (reissued) return `${was}le reçu rectificatif ${reissued.number} (${euroFigures(reissued.amount_cents)}) le remplace pour les autres dons qu’il comprenait et a été envoyé au donateur.`;
  if ((JSON.parse(old.donation_ids) as string[]).length === 1) return `${was}il ne comprenait pas d’autre don, aucun reçu rectificatif n’est émis.`;
  return `${was}les reçus étant désactivés ou leurs paramètres incomplets, aucun reçu rectificatif n’est émis pour les autres dons qu’il comprenait. Une fois les paramètres complétés, émettez les reçus annuels de ${parisYear(old.paid_at)} (écran Reçus) : ils les couvriront.`;
}

/**
 * Tells every Admin that a refund (or a hand-recorded payment taken back) cancelled receipts (they
 * may have to inform the donor), and, for
 * an annual receipt, which corrected receipt replaces it or why none does.
 */
export async function notifyAdminsOfCancellation(db: DB, config: MailConfig, { cancelled: receipts, reissued }: RefundCancellation, adminUrl: string, cause: CancellationCause = 'gift-refunded'): Promise<void> {
  if (!receipts.length) return;
  const why = CAUSES[cause];
  const admins = await adminEmails(db);
  const list = receipts.map((r) => `${r.number} (${euroFigures(r.amount_cents)})`).join(', ');
  const paragraphs = [
    `${why.sentence} : le reçu fiscal ${list} est annulé automatiquement. Il reste dans le registre, marqué « annulé ».`,
    ...receipts.filter((r) => r.kind === 'annual').map((r) => annualFate(r, reissued.find((n) => n.replaces_id === r.id))),
  ];
  const text = `${paragraphs.join('\n\n')}\n\nRegistre des reçus : ${adminUrl}\n`;
  for (const a of admins) {
    await sendMail(db, config, {
      to: a,
      subject: `Reçu fiscal annulé ${why.subject} : ${receipts.map((r) => r.number).join(', ')}`,
      text,
      html: `${paragraphs.map((p) => `<p>${esc(p)}</p>`).join('')}<p><a href="${esc(adminUrl)}">Registre des reçus</a></p>`,
    }).catch((e) => log.error('admin notification failed', { error: e instanceof Error ? e.message : String(e) }));
  }
}

/** For the donor space (and the admin download): a receipt's PDF by id, or undefined. */
export async function receiptPdfById(db: DB, id: string, storage?: Storage): Promise<{ receipt: Receipt; pdf: Buffer; filename: string } | undefined> {
  const receipt = await getReceipt(db, id);
  if (!receipt) return undefined;
  return { receipt, pdf: await renderReceiptPdf(receipt, storage), filename: receiptFileName(receipt) };
}
