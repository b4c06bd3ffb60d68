import type { DonationTable } from '~db/schema';

/**
 * A row of the donations ledger as the tests of the reports write it straight into the table: a
 * succeeded one-off gift in EUR by card dated `at`, unless `fields` say otherwise. A refunded gift
 * keeps its `succeeded_at` (it had succeeded); the other statuses have none.
 */
export function ledgerRow(id: string, at: string, fields: Partial<DonationTable> = {}): DonationTable {
  const status = fields.status ?? 'succeeded';
  return {
    id,
    provider: 'stripe',
    purpose: 'gift',
    provider_ref: `ref-${id}`,
    amount_minor: 0,
    currency: 'EUR',
    eur_cents: 0,
    secondary_ref: null,
    frequency: 'once',
    status,
    verifiable: 1,
    donor_name: null,
    donor_email: null,
    language: 'fr',
    callback_token_hash: null,
    error: null,
    receipt_sent_at: null,
    succeeded_at: status === 'succeeded' || status === 'refunded' ? at : null,
    created_at: at,
    updated_at: at,
    tax_details: null,
    campaign_id: null,
    fee_eur_cents: 0,
    dedication_kind: null,
    dedication_name: null,
    dedication_message: null,
    dedication_email: null,
    dedication_sent_at: null,
    method: null,
    account_last4: null,
    mandate_ref: null,
    mandate_signed_at: null,
    import_id: null,
    source: null,
    source_ref: null,
    external_receipt_number: null,
    ...fields,
  };
}
