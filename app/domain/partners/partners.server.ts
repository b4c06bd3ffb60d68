import type { Selectable } from 'kysely';
import type { DB } from '~db/index';
import type { PartnerTable } from '~db/schema';
import { audit, type Actor } from '~/domain/audit/audit.server';
import type { Paged } from '~/domain/content/forms';
import { contains, newId, pageOf, updateVersioned } from '~/domain/content/store.server';
import type { Snapshot } from '~/domain/revisions/editorial';
import { deleteHistory, recordBaseline, recordRevision } from '~/domain/revisions/revisions.server';
import { getDraft } from '~/domain/revisions/workflow.server';
import type { PartnerInput } from './schema';

export interface Partner {
  id: string;
  name: string;
  logoUrl: string;
  website: string;
}

export interface EditablePartner extends Partner {
  version: number;
}

function toPartner(r: Selectable<PartnerTable>): EditablePartner {
  return { id: r.id, name: r.name, logoUrl: r.logo_url, website: r.website, version: r.version };
}

/**
 * The partners in their public order. `preview`: that partner's draft is shown in its place (for
 * "Aperçu", ADR 015: only for an editor or a signed link, the route checks); visitors never see drafts.
 */
export async function listPartners(db: DB, { preview }: { preview?: string } = {}): Promise<Partner[]> {
  const rows = await db.selectFrom('partners').selectAll().orderBy('position').orderBy('created_at').execute();
  const partners = rows.map((r) => ({ id: r.id, name: r.name, logoUrl: r.logo_url, website: r.website }));
  const draft = preview ? await getDraft(db, { type: PARTNER_TYPE, id: preview }) : undefined;
  if (!draft) return partners;
  const shown = draft.snapshot as unknown as PartnerInput;
  return partners.map((p) => (p.id === preview ? { id: p.id, name: shown.name, logoUrl: shown.logoUrl, website: shown.website } : p));
}

// ---- Back office -------------------------------------------------------------------------------

/** In the public order, a page at a time, searched by name and website. */
export async function listPartnersPage(db: DB, { q, page }: { q: string; page: number }): Promise<Paged<EditablePartner>> {
  const base = db.selectFrom('partners').$if(q !== '', (qb) => qb.where((eb) => eb.or([contains('name', q), contains('website', q)])));
  return pageOf(
    page,
    q,
    async () => (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
    async (limit, offset) => (await base.selectAll().orderBy('position').orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute()).map(toPartner),
  );
}

export async function getPartner(db: DB, id: string): Promise<EditablePartner | undefined> {
  const row = await db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toPartner(row) : undefined;
}

export const columns = (input: PartnerInput) => ({ name: input.name, logo_url: input.logoUrl, website: input.website });

export const PARTNER_TYPE = 'partner';

/** A partner's editable fields as the editorial workflow keeps them (revisions). */
export function partnerSnapshot(p: Partner): Snapshot {
  const input: PartnerInput = { name: p.name, logoUrl: p.logoUrl, website: p.website };
  return { ...input };
}

/** A new partner comes last on the public page. */
export async function createPartner(db: DB, actor: Actor, input: PartnerInput): Promise<EditablePartner> {
  return db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const last = await trx.selectFrom('partners').select((eb) => eb.fn.max('position').as('p')).executeTakeFirst();
    const row = await trx
      .insertInto('partners')
      .values({ id: newId(), ...columns(input), position: Number(last?.p ?? 0) + 1, version: 1, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, actor, 'partner.create', row.name, { id: row.id, website: row.website });
    await recordRevision(trx, { type: PARTNER_TYPE, id: row.id }, partnerSnapshot(toPartner(row)), actor, 'create');
    return toPartner(row);
  });
}

export async function updatePartner(db: DB, actor: Actor, id: string, input: PartnerInput, version: number): Promise<{ partner: EditablePartner } | { error: 'notFound' | 'conflict' }> {
  return db.transaction().execute(async (trx) => {
    const before = await getPartner(trx, id);
    if (before) await recordBaseline(trx, { type: PARTNER_TYPE, id }, partnerSnapshot(before));
    const result = await updateVersioned(trx, 'partners', id, version, columns(input));
    if (result !== 'ok') return { error: result };
    const partner = toPartner(await trx.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    await audit(trx, actor, 'partner.update', partner.name, { id, website: partner.website });
    await recordRevision(trx, { type: PARTNER_TYPE, id }, partnerSnapshot(partner), actor, 'save');
    return { partner };
  });
}

export async function deletePartner(db: DB, actor: Actor, id: string): Promise<EditablePartner | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('partners').where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return undefined;
    await audit(trx, actor, 'partner.delete', row.name, { id });
    await deleteHistory(trx, { type: PARTNER_TYPE, id });
    return toPartner(row);
  });
}
