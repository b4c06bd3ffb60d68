import { randomUUID } from 'node:crypto';
import { audit } from '~/domain/audit/audit.server';
import { DISPUTED_RECEIPT } from '~/domain/receipts/register.server';
import { adminEmails } from '~/domain/users/users.server';
import { formatMoney, toDecimalString } from '~/lib/currency';
import { dateTimeFormat } from '~/lib/intl';
import { log } from '~/lib/log.server';
import { escapeMailHtml as esc, mailConfigFor, sendMail } from '~/lib/mail.server';
import type { DonationDeps } from './context.server';
import { publish } from './events.server';
import { transition, type Donation, type Transition } from './ledger.server';
import type { DisputeOutcome, PaymentDispute } from './providers/provider';
import { STATUS_LABELS, type DonationStatus } from './status';

/**
 * A payer's dispute of a payment (ADR 027): a card chargeback, a SEPA direct debit returned by the
 * donor's bank. Lost, the money is taken back: the payment leaves `succeeded` as a refund does
 * (the ledger's move, its receipts cancelled and an annual statement reissued, published as
 * `payment.refunded`). Open or won, nothing about the money changes. Each dispute's news (its
 * outcome) is recorded once, with its line in the audit log, and every Admin is told once; a
 * replayed event finds its news recorded and changes nothing.
 */
export async function applyDispute(deps: DonationDeps, donation: Donation, dispute: PaymentDispute): Promise<void> {
  const whole = dispute.currency === donation.currency && dispute.amountMinor >= donation.amount_minor;
  // Only money taken back in full refunds a payment, as with a refund (ADR 008): a part taken back is told, not applied.
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: what did not move is read only for a lost dispute of the whole amount, which moves
  const moved = dispute.outcome === 'lost' && whole ? await publish(deps, await transition(deps.db, { id: donation.id }, 'refunded', { receiptReason: DISPUTED_RECEIPT }, deps.receipts)) : { changed: false };
  if (!(await recordNews(deps, donation, dispute))) {
    log.info('dispute news already recorded', { donationId: donation.id, dispute: dispute.ref, outcome: dispute.outcome });
    return;
  }
  await tellAdmins(deps, donation, dispute, mailText(donation, dispute, whole, moved));
}

const OUTCOME_WORDS: Record<DisputeOutcome, string> = { open: 'contestation ouverte', won: 'contestation gagnée', lost: 'contestation perdue' };

/** The dispute's news, once per dispute and outcome, with its audit line, in one transaction: false when it was already recorded. */
async function recordNews(deps: DonationDeps, d: Donation, dispute: PaymentDispute): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    // Stripe does not promise the order of its events: news of an opening that comes after the close is old news.
    const closed = dispute.outcome === 'open' && (await trx.selectFrom('payment_disputes').select('id').where('provider', '=', d.provider).where('dispute_ref', '=', dispute.ref).where('outcome', 'in', ['won', 'lost']).executeTakeFirst());
    if (closed) return false;
    const row = await trx
      .insertInto('payment_disputes')
      .values({ id: randomUUID(), donation_id: d.id, provider: d.provider, dispute_ref: dispute.ref, outcome: dispute.outcome, reason: dispute.reason, amount_minor: dispute.amountMinor, currency: dispute.currency, at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['provider', 'dispute_ref', 'outcome']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    await audit(trx, { id: null, name: 'Paiement en ligne' }, 'donation.disputed', `${toDecimalString(d.amount_minor, d.currency)} ${d.currency} (${d.provider}) : ${OUTCOME_WORDS[dispute.outcome]}`, {
      donation: d.id,
      dispute: dispute.ref,
      outcome: dispute.outcome,
      reason: dispute.reason,
      amount: `${toDecimalString(dispute.amountMinor, dispute.currency)} ${dispute.currency}`,
    });
    return true;
  });
}

/** The words for what was paid (French back office): a gift, or membership dues. */
const NOUNS = {
  gift: { a: 'Un don', the: 'du don', contested: 'contesté', counted: 'il est compté comme remboursé' },
  dues: { a: 'Une cotisation', the: 'de la cotisation', contested: 'contestée', counted: 'elle est comptée comme remboursée' },
};

const money = (minor: number, currency: string) => formatMoney(minor, currency, 'fr').replace(/[\u202f\u00a0]/g, ' ');

interface AdminMail {
  subject: string;
  paragraphs: string[];
}

/** What the Admins read of a dispute's news. */
export function mailText(d: Donation, dispute: PaymentDispute, whole: boolean, moved: Transition): AdminMail {
  const n = d.purpose === 'dues' ? NOUNS.dues : NOUNS.gift;
  const amount = money(d.amount_minor, d.currency);
  const why = `${dispute.reasonLabel} ; litige ${dispute.ref}`;
  const paid = d.succeeded_at ? `du ${dateTimeFormat('fr', { dateStyle: 'long', timeZone: 'Europe/Paris' }).format(new Date(d.succeeded_at))}` : 'non confirmé';
  const facts = `Paiement ${paid}, de ${d.donor_name || d.donor_email || 'donateur inconnu'}, référence ${d.id}.`;
  const subject = `${OUTCOME_WORDS[dispute.outcome][0].toUpperCase()}${OUTCOME_WORDS[dispute.outcome].slice(1)} : ${n.a.toLowerCase()} de ${amount}`;
  return { subject, paragraphs: [sentence(n, amount, why, dispute, whole, moved, d.status as DonationStatus), facts] };
}

function sentence(n: (typeof NOUNS)['gift'], amount: string, why: string, dispute: PaymentDispute, whole: boolean, moved: Transition, status: DonationStatus): string {
  if (dispute.outcome === 'won') return `La contestation ${n.the} de ${amount} est close en faveur de la fondation (${why}) : rien ne change, l’argent n’a pas été repris.`;
  if (dispute.outcome === 'open') {
    return `${n.a} de ${amount} a été ${n.contested} auprès de la banque du payeur (${why}). Rien ne change pour l’instant : le paiement reste compté et son reçu fiscal reste valable. Répondez à la contestation depuis l’espace du prestataire de paiement avant l’échéance qu’il indique ; perdue, le paiement sera compté comme remboursé et son reçu annulé.`;
  }
  if (!whole) {
    return `${n.a} de ${amount} a été ${n.contested} et la banque du payeur en a repris ${money(dispute.amountMinor, dispute.currency)} (${why}) : le paiement et son reçu restent tels quels, une reprise partielle ne le rembourse pas. Corrigez-les à la main s’il le faut.`;
  }
  if (!moved.changed) return `${n.a} de ${amount} a été ${n.contested} (${why}) : le paiement, « ${STATUS_LABELS[status]} », ne change pas.`;
  // Stryker disable next-line ArrayDeclaration: a move to refunded always answers the receipts it cancelled
  const receipts = moved.cancelledReceipts ?? [];
  const fate = receipts.length ? `son reçu est annulé (${receipts.map((r) => r.number).join(', ')})` : 'aucun reçu fiscal n’était valable pour ce paiement';
  return `${n.a} de ${amount} a été ${n.contested} (${why}) : ${n.counted} et ${fate}.`;
}

/** Every Admin who can sign in, once per news (a failed mail is logged: the dispute stands recorded). */
async function tellAdmins(deps: DonationDeps, d: Donation, dispute: PaymentDispute, mail: AdminMail): Promise<void> {
  const link = `${deps.publicUrl ?? ''}/admin/donations`;
  const config = mailConfigFor(deps.env, deps.publicUrl);
  for (const to of await adminEmails(deps.db)) {
    const sent = sendMail(deps.db, config, {
      to,
      subject: mail.subject,
      text: `${mail.paragraphs.join('\n\n')}\n\nDons : ${link}\n`,
      html: `${mail.paragraphs.map((p) => `<p>${esc(p)}</p>`).join('')}<p><a href="${esc(link)}">Dons</a></p>`,
    });
    // Stryker disable next-line all: sendMail answers a mail it could not send; it throws only when the database fails, which no test makes happen
    await sent.catch((e) => log.error('dispute notice failed', { donationId: d.id, dispute: dispute.ref, error: e instanceof Error ? e.message : String(e) }));
  }
}
