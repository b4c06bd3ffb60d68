/**
 * Members from a memberships export (issue 43, ADR 036): the dry run's count and the import's
 * writing, line by line through the membership area (enterImportedMember: the register's entry
 * and the dues' payment, no mail). Each member is recorded in `import_records` (kind `member`,
 * source and reference) for the undo; the dues' payment id makes the same line twice add nothing.
 */
import type { DB } from '~db/index';
import { enterImportedMember, importedDuesId } from '~/domain/membership/imported.server';
import { listTypes } from '~/domain/membership/types.server';
import { fold, type Field } from './fields';
import { refuseLine, type DryRunReport, type ImportSettings } from './settings';
import { interpretMemberLine, typeOfLine, type MemberLine } from './members';
import { dataRows } from './read.server';

/** The membership types by their French name, folded. */
export async function typesByName(db: DB): Promise<Map<string, string>> {
  return new Map((await listTypes(db)).map((t) => [fold(t.translations.fr.name), t.id]));
}

/** A line read as a member with its type, or refused. */
export type ResolvedMember = { ok: true; member: MemberLine; typeId: string } | { ok: false; line: number; reason: string };

export function resolveMember(line: number, cells: readonly string[], index: Partial<Record<Field, number>>, settings: ImportSettings, types: ReadonlyMap<string, string>): ResolvedMember {
  const r = interpretMemberLine(line, cells, index, settings.defaultMeans);
  if (!r.ok) return r;
  const type = typeOfLine(r.member, types, settings.membershipTypeId);
  return 'id' in type ? { ok: true, member: r.member, typeId: type.id } : { ok: false, line, reason: type.reason };
}

/** The dry run of a memberships export: members to enter or renew, those already imported, each refused line. */
export async function countMemberLines(db: DB, data: Buffer, settings: ImportSettings, index: Partial<Record<Field, number>>, report: DryRunReport): Promise<void> {
  const types = await typesByName(db);
  const seen = new Set<string>();
  report.members = 0;
  let pending: string[] = [];
  const flush = async () => {
    if (!pending.length) return;
    const ids = pending.map((ref) => importedDuesId(settings.source, ref));
    report.alreadyImported += (await db.selectFrom('membership_dues').select('id').where('payment_id', 'in', ids).execute()).length;
    pending = [];
  };
  for await (const row of dataRows(data, settings.reading)) {
    report.lines++;
    const r = resolveMember(row.line, row.cells, index, settings, types);
    if (!r.ok) {
      refuseLine(report, r.line, r.reason);
      continue;
    }
    if (seen.has(r.member.ref)) {
      refuseLine(report, r.member.line, 'cet adhérent figure déjà plus haut dans le fichier pour la même commande.');
      continue;
    }
    seen.add(r.member.ref);
    report.members++;
    pending.push(r.member.ref);
    if (pending.length >= 400) await flush();
  }
  await flush();
}

/** Writes a batch of member lines (each through the membership area, then recorded for the undo); answers the dues added. */
export async function importMembers(db: DB, importId: string, source: string, lines: readonly { member: MemberLine; typeId: string }[]): Promise<number> {
  let added = 0;
  for (const { member: m, typeId } of lines) {
    const r = await enterImportedMember(db, {
      paymentId: importedDuesId(source, m.ref),
      typeId,
      firstName: m.firstName,
      lastName: m.lastName,
      email: m.email,
      address: m.address,
      postalCode: m.postalCode,
      city: m.city,
      country: m.country,
      language: m.language,
      paidAt: m.at,
      amountCents: m.amountCents,
      method: m.means,
    });
    if (r.added) added++;
    // Recorded even when the dues were there: a run stopped between the two resumes here.
    await db
      .insertInto('import_records')
      .values({ import_id: importId, kind: 'member', source, source_ref: m.ref, record_id: r.membershipId, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['kind', 'source', 'source_ref']).doNothing())
      .execute();
  }
  return added;
}
