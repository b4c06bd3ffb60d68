/**
 * Dues whose payment event was lost (ADR 021): the pipeline publishes an event after the ledger's
 * commit and a subscriber that fails is only logged (ADR 019), so a process that died between the
 * commit and the subscriber, or a database error inside it, would leave a verified payment whose
 * membership never became active. This sweep, run before the hourly reminders, finds the dues
 * payments the ledger settled that the register does not reflect — a success with no dues row, a
 * refund or a hand-recorded payment taken back (cancelled) whose dues still count — and hands each
 * to the same subscriber as the event would have. A failed payment never had dues to undo.
 * Everything it calls is idempotent on the payment id (and the member's mail is claimed once), so
 * running it beside a live event, on several instances, changes nothing twice.
 */
import type { DonationDeps } from '~/domain/donations/context.server';
import { findById } from '~/domain/donations/ledger.server';
import { log } from '~/lib/log.server';
import { duesSubscriber } from './dues-mail.server';

export async function reconcileDues(deps: DonationDeps): Promise<{ applied: number; revoked: number }> {
  const rows = await deps.db
    .selectFrom('membership_payments as mp')
    .innerJoin('donations as d', 'd.id', 'mp.payment_id')
    .leftJoin('membership_dues as md', 'md.payment_id', 'mp.payment_id')
    .select(['d.id as id', 'd.status as status'])
    .where((eb) =>
      eb.or([
        eb.and([eb('d.status', '=', 'succeeded'), eb('md.id', 'is', null)]),
        eb.and([eb('d.status', 'in', ['refunded', 'cancelled']), eb('md.id', 'is not', null), eb('md.revoked_at', 'is', null)]),
      ]),
    )
    .execute();
  const done = { applied: 0, revoked: 0 };
  for (const row of rows) {
    const payment = await findById(deps.db, row.id);
    if (!payment) continue;
    // The event the ledger's move published, as it was (`payment.<status>`): what the subscriber would have done then, it does now.
    const type = `payment.${row.status}` as 'payment.succeeded' | 'payment.refunded' | 'payment.cancelled';
    log.warn('dues payment reconciled', { donationId: row.id, event: type });
    await duesSubscriber(deps, { type, purpose: 'dues', payment, receipt: null, cancelledReceipts: [], reissuedReceipts: [] });
    done[type === 'payment.succeeded' ? 'applied' : 'revoked']++;
  }
  return done;
}
