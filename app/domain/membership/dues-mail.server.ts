/**
 * The mail a member gets when dues paid online are applied (ADR 021): once per payment (the
 * payment's claim, as a gift's thank-you), in the member's language, with the tax receipt when the
 * type's dues are deductible and the ledger numbered one, and the member card (valid until the new
 * end) attached.
 */
import type { DonationDeps } from '~/domain/donations/context.server';
import type { PaymentEvent } from '~/domain/donations/events.server';
import { claimReceipt, type Donation } from '~/domain/donations/ledger.server';
import { formatMoney } from '~/lib/currency';
import { giftReceiptForMail } from '~/domain/receipts/mail.server';
import { formatDay } from '~/lib/intl';
import { LOCALES, isLang, translate, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { escapeMailHtml as esc, mailConfigFor, sendMail } from '~/lib/mail.server';
import { memberCardFileName, memberCardPdf } from './card.server';
import { onDuesPayment } from './payments.server';
import { getType } from './types.server';

/** Mails the member whose dues `payment` just paid: active until `endsOn`. Nothing without an address or a second time. */
export async function mailDuesApplied(deps: Pick<DonationDeps, 'db' | 'env' | 'publicUrl' | 'storage' | 'secret'>, membershipId: string, payment: Donation, endsOn: string): Promise<void> {
  const m = await deps.db.selectFrom('memberships').select(['first_name', 'last_name', 'email', 'language', 'number', 'type_id']).where('id', '=', membershipId).executeTakeFirst();
  if (!m?.email) return;
  if (!(await claimReceipt(deps.db, payment.id))) return;
  const lang: Lang = isLang(m.language) ? m.language : 'fr';
  const msg = messagesFor(lang);
  const type = await getType(deps.db, m.type_id);
  const vars = {
    name: `${m.first_name} ${m.last_name}`,
    type: type ? type.translations[lang].name : '',
    number: String(m.number),
    amount: formatMoney(payment.amount_minor, payment.currency, lang),
    date: formatDay(endsOn, LOCALES[lang]),
  };
  const tax = await giftReceiptForMail(deps.db, payment.id, lang, deps.storage);
  const card = { filename: memberCardFileName(m.number, lang), content: await memberCardPdf(deps.db, membershipId, lang, { storage: deps.storage, secret: deps.secret, publicUrl: deps.publicUrl }), contentType: 'application/pdf' };
  const lines = [translate(msg, 'joinMail.body', vars), translate(msg, 'joinMail.cardAttached'), ...(tax ? [tax.line] : []), translate(msg, 'membershipMail.signature', vars)];
  await sendMail(deps.db, mailConfigFor(deps.env, deps.publicUrl), {
    to: m.email,
    subject: translate(msg, 'joinMail.subject', vars),
    text: lines.join('\n\n'),
    html: lines.map((l) => `<p>${esc(l)}</p>`).join('\n'),
    attachments: tax ? [card, tax.attachment] : [card],
  });
}

/** The subscriber registered for dues: applies (or revokes) them, then mails the member once they were applied now. */
export async function duesSubscriber(deps: DonationDeps, e: PaymentEvent): Promise<void> {
  const outcome = await onDuesPayment(deps, e);
  if (outcome && 'applied' in outcome && outcome.applied.status === 'applied') await mailDuesApplied(deps, outcome.membershipId, e.payment, outcome.applied.endsOn);
}
