/**
 * Members an import brings (issue 43, ADR 036): a member of a type, with the dues the file says
 * were paid elsewhere, entered through the register's and the dues' own functions — so the period
 * and its end follow the type's rule, as for any payment — and no mail (neither of them mails).
 * The dues carry the file's reference (`import:{source}:{ref}`) as their payment id: the same
 * line twice adds nothing. Taken back by the import's undo.
 */
import type { DB } from '~db/index';
import { applyDuesPayment, recompute } from './dues.server';
import { createMember } from './register.server';

export interface ImportedMember {
  /** The dues' payment id: `import:{source}:{ref}`. */
  paymentId: string;
  typeId: string;
  firstName: string;
  lastName: string;
  email: string;
  address: string;
  postalCode: string;
  city: string;
  country: string;
  language: 'fr' | 'en' | 'es';
  /** When the dues were paid (ISO). */
  paidAt: string;
  amountCents: number;
  /** The means, in the dues' words ('card', 'cheque', …). */
  method: string;
}

export const importedDuesId = (source: string, ref: string) => `import:${source}:${ref}`;

/**
 * Enters the member (or finds the one of this type with this e-mail and name: a renewal in the same
 * file or a member already here) and records the dues; answers the membership's id. Its dues
 * already recorded: nothing is written.
 */
export async function enterImportedMember(db: DB, m: ImportedMember): Promise<{ membershipId: string; added: boolean }> {
  const known = await db.selectFrom('membership_dues').select('membership_id').where('payment_id', '=', m.paymentId).executeTakeFirst();
  if (known) return { membershipId: known.membership_id, added: false };
  const email = m.email.toLowerCase();
  const same = email
    ? await db
        .selectFrom('memberships')
        .select('id')
        .where('email', '=', email)
        .where('type_id', '=', m.typeId)
        .where((eb) => eb.fn('lower', ['first_name']), '=', m.firstName.toLowerCase())
        .where((eb) => eb.fn('lower', ['last_name']), '=', m.lastName.toLowerCase())
        .executeTakeFirst()
    : undefined;
  const membershipId =
    same?.id ??
    (
      await createMember(db, null, {
        type_id: m.typeId,
        first_name: m.firstName,
        last_name: m.lastName,
        email,
        phone: '',
        address: m.address,
        postal_code: m.postalCode,
        city: m.city,
        country: m.country,
        language: m.language,
        exempt: false,
      })
    ).id;
  const r = await applyDuesPayment(db, { membershipId, paymentId: m.paymentId, amountCents: m.amountCents, paidAt: m.paidAt, method: m.method });
  return { membershipId, added: r.status === 'applied' };
}

/**
 * The undo (inside its transaction): the imported dues go, each membership's periods are
 * recomputed, and a member entered since `since` that has nothing else (no other dues, no override)
 * is deleted. Answers the members deleted.
 */
export async function removeImportedMembers(trx: DB, paymentIds: readonly string[], since: string): Promise<number> {
  let removed = 0;
  for (const paymentId of paymentIds) {
    const dues = await trx.deleteFrom('membership_dues').where('payment_id', '=', paymentId).returning('membership_id').executeTakeFirst();
    if (!dues) continue;
    const id = dues.membership_id;
    const m = await trx.selectFrom('memberships').select(['created_at', 'state_override']).where('id', '=', id).executeTakeFirst();
    const other = await trx.selectFrom('membership_dues').select('id').where('membership_id', '=', id).executeTakeFirst();
    if (m && !other && !m.state_override && m.created_at >= since) {
      await trx.deleteFrom('membership_reminders').where('membership_id', '=', id).execute();
      await trx.deleteFrom('memberships').where('id', '=', id).execute();
      removed++;
    } else if (m) await recompute(trx, id);
  }
  return removed;
}
