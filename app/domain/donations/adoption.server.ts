import { randomUUID } from 'node:crypto';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { toDecimalString } from '~/lib/currency';
import type { DonationDeps } from './context.server';
import { findBySecondaryRef, recordAdopted } from './ledger.server';
import type { ExistingSubscription } from './providers/provider';
import { allProviders, providerOf } from './providers/registry.server';
import { ProviderError } from './providers/types';
import { PROVIDERS, type ProviderName } from './status';

/**
 * Moving in with the monthly donors (ADR 037): the subscriptions already running at a provider
 * (the foundation's own account, the payments' key) that are no monthly gift of ours yet, and their
 * adoption as monthly gifts without a new checkout — amount, next date and card stay the
 * provider's; the next paid instalment arrives through the webhook like any renewal; the donor
 * space manages the gift. Adopting is an Admin's act, audited, and adopting twice adds nothing.
 */

export interface Adoptable extends ExistingSubscription {
  provider: ProviderName;
}

export interface AdoptableList {
  subscriptions: Adoptable[];
  /** A provider that could not be asked (no key, unreachable), with what it said. */
  errors: { provider: ProviderName; message: string }[];
}

const listing = () => allProviders().filter((p) => p.subscriptions?.listExisting);

/** Whether a provider can list its running subscriptions here. */
export const isAdoptingProvider = (name: string): name is ProviderName => (PROVIDERS as readonly string[]).includes(name) && Boolean(providerOf(name as ProviderName).subscriptions?.readExisting);

/** Which of these subscriptions are gifts of ours already (started here or adopted), asked 500 at a time. */
async function knownRefs(deps: DonationDeps, provider: ProviderName, ids: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await deps.db.selectFrom('donations').select('secondary_ref').where('provider', '=', provider).where('secondary_ref', 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) known.add(r.secondary_ref!);
  }
  return known;
}

/** The running subscriptions of every provider that lists them, those already ours left out. */
export async function adoptableSubscriptions(deps: DonationDeps): Promise<AdoptableList> {
  const out: AdoptableList = { subscriptions: [], errors: [] };
  for (const p of listing()) {
    try {
      const running = await p.subscriptions!.listExisting!(deps);
      const ours = await knownRefs(deps, p.name, running.map((s) => s.id));
      out.subscriptions.push(...running.filter((s) => !ours.has(s.id)).map((s) => ({ ...s, provider: p.name })));
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      out.errors.push({ provider: p.name, message: e.message });
    }
  }
  return out;
}

export type AdoptionOutcome = 'adopted' | 'already' | 'refused' | 'missing';

/**
 * Adopts one subscription, read again from its provider: its gift's starting row in the ledger
 * (status `adopted`), the gift itself (monthly_gifts, with an `adopted` event) and the audit line,
 * together or not at all. Already ours (adopted or started here): nothing is written.
 */
export async function adoptSubscription(deps: DonationDeps, actor: Actor, provider: ProviderName, id: string): Promise<AdoptionOutcome> {
  const caps = providerOf(provider).subscriptions;
  if (!caps?.readExisting) return 'missing';
  if (await findBySecondaryRef(deps.db, provider, id)) return 'already';
  const sub = await caps.readExisting(deps, id);
  if (!sub) return 'missing';
  if (sub.refusal) return 'refused';
  const now = new Date().toISOString();
  const t = await recordAdopted(
    deps.db,
    { provider, secondaryRef: sub.id, startedAt: sub.startedAt, amountMinor: sub.amountMinor, currency: sub.currency, eurCents: null, frequency: 'monthly', language: sub.lang, donorName: sub.name, donorEmail: sub.email },
    async (trx, first) => {
      await trx.insertInto('monthly_gifts').values({ id: sub.id, provider, first_donation_id: first.id, amount_minor: sub.amountMinor, currency: sub.currency, status: 'active', updated_at: now }).execute();
      await trx
        .insertInto('monthly_gift_events')
        .values({ id: randomUUID(), gift_id: sub.id, kind: 'adopted', amount_minor: sub.amountMinor, previous_amount_minor: null, source: 'admin', provider_ref: `${sub.id}:adopted`, at: now })
        .execute();
      await audit(trx, actor, 'monthly_gift.adopted', `${toDecimalString(sub.amountMinor, sub.currency)} ${sub.currency} / mois (${sub.id})`, { gift: sub.id, provider, email: sub.email, nextAt: sub.nextAt });
    },
  );
  return t.changed ? 'adopted' : 'already';
}

/** Adopts each chosen subscription in turn; how many ended each way. */
export async function adoptSubscriptions(deps: DonationDeps, actor: Actor, provider: ProviderName, ids: string[]): Promise<Record<AdoptionOutcome, number>> {
  const counts: Record<AdoptionOutcome, number> = { adopted: 0, already: 0, refused: 0, missing: 0 };
  for (const id of [...new Set(ids)].slice(0, 500)) counts[await adoptSubscription(deps, actor, provider, id)] += 1;
  return counts;
}
