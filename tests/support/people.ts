import type { DB } from '~db/index';
import type { ReceiptTable } from '~db/schema';
import { createMember } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import { ledgerRow } from './ledger-rows';
import { memberInput, membershipType } from './membership';

/** Rows of every kind a person's address gathers, written straight into their tables (the register reads, never writes them). */
export async function gift(db: DB, id: string, email: string, at: string, fields: Parameters<typeof ledgerRow>[2] = {}): Promise<void> {
  await db.insertInto('donations').values(ledgerRow(id, at, { donor_email: email, amount_minor: 5000, eur_cents: 5000, ...fields })).execute();
}

export function receiptRow(id: string, number: string, email: string, donationIds: string[], fields: Partial<ReceiptTable> = {}): ReceiptTable {
  return {
    id, number, year: Number(number.slice(0, 4)), seq: Number(number.slice(5)), kind: 'gift', donation_id: donationIds[0] ?? null, donation_ids: JSON.stringify(donationIds), donor_email: email, language: 'fr',
    donor: '{}', organisation: '{}', amount_cents: 5000, paid_at: '2026-02-01T10:00:00.000Z', method: 'Carte', issued_at: '2026-02-01T10:00:00.000Z', status: 'issued', cancelled_at: null, cancel_reason: null,
    replaces_id: null, sent_at: null, nature: 'numeraire', nature_description: null, regime: '200', ...fields,
  };
}

export async function subscriber(db: DB, id: string, email: string, at = '2026-01-05T10:00:00.000Z'): Promise<void> {
  await db.insertInto('subscribers').values({ id, email, language: 'fr', source: 'signup', status: 'subscribed', suppressed_reason: null, soft_bounces: 0, created_at: at, updated_at: at }).execute();
}

/** A member of a fresh type. */
export async function member(db: DB, over: Parameters<typeof memberInput>[1]): Promise<string> {
  const typeId = await createType(db, { id: null, name: 'test' }, membershipType());
  return (await createMember(db, null, memberInput(typeId, over))).id;
}
