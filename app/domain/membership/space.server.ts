/**
 * The member in the donor space (ADR 021, ADR 013): the memberships registered under an e-mail
 * address, each with its state on the day, the end of what its dues pay for and its dues. The
 * donor space's sign-in link serves members too (`isMemberEmail`), and a membership's card is
 * served only to the address it is registered under (`membershipOfEmail`).
 */
import type { DB } from '~db/index';
import type { Period } from './period';
import { duesHistory, getMember } from './register.server';
import { getMembershipSettings } from './settings.server';
import type { MembershipState } from './status';
import { getType } from './types.server';
import type { TypeTranslations } from './forms';

/** Whether a membership is registered under this (lower-case) e-mail address. */
export async function isMemberEmail(db: DB, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('memberships')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

/** The membership `id` (and its number) if it is registered under this e-mail address, else null. */
export async function membershipOfEmail(db: DB, email: string, id: string): Promise<{ id: string; number: number } | null> {
  if (!id || id.length > 64) return null;
  const row = await db
    .selectFrom('memberships')
    .select(['id', 'number'])
    .where('id', '=', id)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
  return row ? { id: row.id, number: Number(row.number) } : null;
}

export interface MemberDues {
  id: string;
  paidAt: string;
  amountCents: number;
  method: string;
  period: Period | null;
  status: string;
}

export interface MembershipView {
  id: string;
  number: number;
  /** The type's name in each language. */
  typeNames: Record<keyof TypeTranslations, string>;
  state: MembershipState;
  /** The last day the dues pay for (a Paris day), or null. */
  endsOn: string | null;
  /** Honorary or exempt (by the entry or the Admin's override): no end, no renewal. */
  exempt: boolean;
  dues: MemberDues[];
}

/** The memberships under this e-mail address, by number, each as on `day` (a Paris day). */
export async function membershipsOfEmail(db: DB, email: string, day: string): Promise<MembershipView[]> {
  const rows = await db
    .selectFrom('memberships')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .orderBy('number')
    .execute();
  if (rows.length === 0) return [];
  const { graceDays } = await getMembershipSettings(db);
  const views: MembershipView[] = [];
  for (const { id } of rows) {
    const m = await getMember(db, id, day, graceDays);
    // Stryker disable next-line ConditionalExpression: read in the same call as its id; kept for a row erased in between
    if (!m) continue;
    const type = await getType(db, m.typeId);
    const name = (lang: keyof TypeTranslations) => type?.translations[lang].name || type?.translations.fr.name || '';
    views.push({
      id: m.id,
      number: m.number,
      typeNames: { fr: name('fr'), en: name('en'), es: name('es') },
      state: m.state,
      endsOn: m.endsOn,
      exempt: m.exempt || m.state === 'honorary',
      dues: (await duesHistory(db, m.id)).map((d) => ({ id: d.id, paidAt: d.paidAt, amountCents: d.amountCents, method: d.method, period: d.period, status: d.status })),
    });
  }
  return views;
}
