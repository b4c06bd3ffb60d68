/** Types of membership: listed for the register and the settings tab, saved by an Admin (audited). */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import type { MembershipTypeInput, TypeTranslations } from './forms';
import type { PeriodModel, PeriodRule } from './period';

export interface MembershipType {
  id: string;
  translations: TypeTranslations;
  duesCents: number;
  rule: PeriodRule;
  taxDeductible: boolean;
  position: number;
}

type Row = { id: string; translations: string; dues_cents: number; period_model: string; rollover: string; tax_deductible: number; position: number };

function fromRow(r: Row): MembershipType {
  return {
    id: r.id,
    translations: JSON.parse(r.translations) as TypeTranslations,
    duesCents: r.dues_cents,
    rule: { model: r.period_model as PeriodModel, rollover: r.rollover },
    taxDeductible: r.tax_deductible === 1,
    position: r.position,
  };
}

const COLUMNS = ['id', 'translations', 'dues_cents', 'period_model', 'rollover', 'tax_deductible', 'position'] as const;

export async function listTypes(db: DB): Promise<MembershipType[]> {
  return (await db.selectFrom('membership_types').select(COLUMNS).orderBy('position').orderBy('created_at').execute()).map(fromRow);
}

export async function getType(db: DB, id: string): Promise<MembershipType | undefined> {
  const row = await db.selectFrom('membership_types').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

function columnsOf(input: MembershipTypeInput) {
  return {
    translations: JSON.stringify(input.translations),
    dues_cents: input.duesCents,
    period_model: input.periodModel,
    rollover: input.rollover,
    tax_deductible: input.taxDeductible ? 1 : 0,
  };
}

const auditDetails = (input: MembershipTypeInput) => ({ name: input.translations.fr.name, duesCents: input.duesCents, periodModel: input.periodModel, rollover: input.rollover, taxDeductible: input.taxDeductible });

export async function createType(db: DB, actor: Actor, input: MembershipTypeInput): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    // Last in the list; computed in the insert itself, so that the transaction writes first.
    await trx
      .insertInto('membership_types')
      .values({ id, ...columnsOf(input), position: sql<number>`(select coalesce(max(position), 0) + 1 from membership_types)`, created_at: now, updated_at: now })
      .execute();
    await audit(trx, actor, 'membership.type.create', input.translations.fr.name, auditDetails(input));
  });
  return id;
}

/** Saves a type; false when it does not exist. A change of period model applies to periods computed from now on. */
export async function updateType(db: DB, actor: Actor, id: string, input: MembershipTypeInput): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('membership_types')
      .set({ ...columnsOf(input), updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await audit(trx, actor, 'membership.type.update', input.translations.fr.name, { id, ...auditDetails(input) });
    return true;
  });
}
