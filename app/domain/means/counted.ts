import { sql, type Expression, type SqlBool } from 'kysely';
import { NON_MONEY_MEANS } from './providers/names';

/** The means that are no money (gifts in kind, waived expenses: ADR 030), as an SQL list. */
export const NOT_MONEY = sql.join(NON_MONEY_MEANS.map((m) => sql`${m}`));

/**
 * A row of `donations` that counts as money received, whatever its date: succeeded (a refund or a
 * lost dispute takes it out), valued in euros, and money. The one rule of the reports and the
 * donors register (ADR 038); kept here, in the leaf area of the means, so that both can read it
 * without a circle between the areas.
 */
export function countsAsMoney(): Expression<SqlBool> {
  return sql<SqlBool>`status = 'succeeded' and eur_cents is not null and provider not in (${NOT_MONEY})`;
}
