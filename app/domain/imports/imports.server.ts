/**
 * Files imported (issue 43, ADR 036): stored on upload with how to read them (encoding, separator)
 * and which export they are (a preset recognised from the header, or a mapping chosen), then
 * checked by a dry run that writes nothing but its report. The import itself is run.server.ts's.
 */
import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import type { ImportTable } from '~db/schema';
import { audit, type Actor } from '~/domain/audit/audit.server';
import type { Storage } from '~/lib/storage.server';
import { BUILT_IN_PRESETS, columnsOf, detectPreset, FIELD_LABELS, guessMapping, MAX_LISTED, REQUIRED_FIELDS, type Field, type Mapping } from './fields';
import { campaignKey, donorKey, interpretLine } from './lines';
import { countMemberLines } from './members.server';
import { refuseLine, type DryRunReport, type ImportSettings } from './settings';
import { dataRows, detectReading, FileError, readHeader } from './read.server';
import { isZip, xlsxToCsv } from './xlsx.server';

export { MAX_IMPORT_BYTES } from './fields';
export const IMPORT_STATUSES = ['uploaded', 'checked', 'running', 'done', 'failed', 'undone'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const IMPORT_STATUS_LABELS: Record<ImportStatus, string> = { uploaded: 'À vérifier', checked: 'Vérifié, prêt à importer', running: 'En cours', done: 'Importé', failed: 'Échoué', undone: 'Annulé' };

export type { DryRunReport, ImportSettings } from './settings';

export type ImportRow = ImportTable & { status: ImportStatus };
export const settingsOf = (i: Pick<ImportTable, 'mapping'>): ImportSettings => JSON.parse(i.mapping) as ImportSettings;
export const reportOf = (i: Pick<ImportTable, 'report'>): DryRunReport | null => (i.report ? (JSON.parse(i.report) as DryRunReport) : null);
const fileKey = (id: string) => `import-${id}.csv`;

/**
 * Stores an uploaded file with its reading and the preset its header names (or a guessed mapping);
 * a file that is no table is refused (FileError). A workbook (XLSX) is stored as the CSV of its first
 * sheet (xlsx.server.ts), under its own name.
 */
export async function createImport(db: DB, storage: Storage, actor: Actor, fileName: string, upload: Buffer): Promise<ImportRow> {
  const data = isZip(upload) ? xlsxToCsv(upload) : upload;
  const reading = detectReading(data);
  const header = await readHeader(data, reading);
  const preset = detectPreset(header);
  const settings: ImportSettings = {
    reading,
    header,
    source: preset?.source ?? 'spreadsheet',
    kind: preset?.kind ?? 'gifts',
    presetId: preset?.id ?? null,
    // A known export's columns, and the organisation's own (custom fields: address, city…) guessed by their names.
    mapping: { ...guessMapping(header), ...preset?.mapping },
    defaultMeans: preset?.defaultMeans ?? 'transfer',
  };
  const id = randomUUID();
  await storage.put(fileKey(id), data, 'text/csv');
  const row: ImportRow = {
    id,
    file_name: fileName.slice(0, 200),
    file_key: fileKey(id),
    file_size: upload.length,
    source: settings.source,
    mapping: JSON.stringify(settings),
    status: 'uploaded',
    report: null,
    total_lines: 0,
    cursor: 0,
    imported_count: 0,
    lease_until: null,
    error: null,
    created_by: actor.name,
    created_at: new Date().toISOString(),
    started_at: null,
    finished_at: null,
    undone_at: null,
  };
  await db.insertInto('imports').values(row).execute();
  await audit(db, actor, 'import.uploaded', row.file_name, { import: id, source: settings.source, size: upload.length, ...(data !== upload && { workbook: true }) });
  return row;
}

export async function getImport(db: DB, id: string): Promise<ImportRow | undefined> {
  return (await db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst()) as ImportRow | undefined;
}

export async function listImports(db: DB, limit = 100): Promise<ImportRow[]> {
  return (await db.selectFrom('imports').selectAll().orderBy('created_at', 'desc').limit(limit).execute()) as ImportRow[];
}

/** The file's bytes (kept until the import is undone). */
export async function fileOf(storage: Storage, i: Pick<ImportTable, 'file_key'>): Promise<Buffer> {
  const data = await storage.get(i.file_key);
  if (!data) throw new FileError('Le fichier de cet import n’est plus disponible : envoyez-le de nouveau.');
  return data;
}

/** Changes the source, mapping and default means (before the import starts): the dry run is to be done again. */
export async function setMapping(db: DB, id: string, change: Pick<ImportSettings, 'source' | 'mapping' | 'defaultMeans' | 'kind' | 'membershipTypeId'> & { presetId: string | null }): Promise<boolean> {
  const i = await getImport(db, id);
  if (!i || (i.status !== 'uploaded' && i.status !== 'checked')) return false;
  const settings = { ...settingsOf(i), ...change };
  await db.updateTable('imports').set({ mapping: JSON.stringify(settings), status: 'uploaded', report: null }).where('id', '=', id).where('status', 'in', ['uploaded', 'checked']).execute();
  return true;
}

/** Campaigns by their French title or address (campaignKey), to attach gifts to. */
export async function campaignsByTitle(db: DB): Promise<Map<string, string>> {
  const rows = await db.selectFrom('campaigns').select(['id', 'slug', 'translations']).execute();
  const byTitle = new Map<string, string>();
  for (const r of rows) {
    const t = (JSON.parse(r.translations) as Record<string, { title?: string }>).fr?.title;
    byTitle.set(campaignKey(r.slug), r.id);
    if (t) byTitle.set(campaignKey(t), r.id);
  }
  return byTitle;
}

/** The mapped columns' indexes, or the sentence saying which required field or column is missing. */
export function columnsFor(settings: ImportSettings, header: string[]): { ok: true; index: Partial<Record<Field, number>> } | { ok: false; message: string } {
  const kind = settings.kind ?? 'gifts';
  const unmapped = REQUIRED_FIELDS[kind].filter((f) => !settings.mapping[f]);
  if (kind === 'members' && !settings.mapping.membershipType && !settings.membershipTypeId) unmapped.push('membershipType');
  if (unmapped.length) return { ok: false, message: `Choisissez la colonne de : ${unmapped.map((f) => FIELD_LABELS[f]).join(', ')}.` };
  const { index, missing } = columnsOf(header, settings.mapping);
  if (missing.length) return { ok: false, message: `Colonne${missing.length > 1 ? 's' : ''} absente${missing.length > 1 ? 's' : ''} du fichier : ${missing.map((c) => `« ${c} »`).join(', ')}.` };
  return { ok: true, index };
}

const LOOKUP_BATCH = 400;

/**
 * The dry run (ADR 036): every line read as the import will read it, nothing written but the
 * report — gifts by status, those already imported, donors new or recognised (by e-mail, or by
 * name and postal code: listed for review), subscribers with a consent, campaigns found or to create,
 * and each refused line by its number and reason.
 */
export async function dryRun(db: DB, storage: Storage, id: string): Promise<DryRunReport | undefined> {
  const i = await getImport(db, id);
  if (!i || (i.status !== 'uploaded' && i.status !== 'checked')) return undefined;
  const settings = settingsOf(i);
  const report: DryRunReport = { lines: 0, gifts: 0, succeeded: 0, refunded: 0, failed: 0, totalCents: 0, alreadyImported: 0, newDonors: 0, matchedByEmail: 0, matchedByName: [], subscribers: 0, campaignsFound: [], campaignsUnknown: [], rejected: [], rejectedCount: 0, fatal: null };
  try {
    const data = await fileOf(storage, i);
    const cols = columnsFor(settings, await readHeader(data, settings.reading));
    if (!cols.ok) report.fatal = cols.message;
    else if (settings.kind === 'members') await countMemberLines(db, data, settings, cols.index, report);
    else await countLines(db, data, settings, cols.index, report);
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    report.fatal = e.message;
  }
  await db.updateTable('imports').set({ report: JSON.stringify(report), status: report.fatal ? 'uploaded' : 'checked', total_lines: report.lines }).where('id', '=', id).where('status', 'in', ['uploaded', 'checked']).execute();
  return report;
}

async function countLines(db: DB, data: Buffer, settings: ImportSettings, index: Partial<Record<Field, number>>, report: DryRunReport) {
  const campaigns = await campaignsByTitle(db);
  const seenDonors = new Set<string>();
  const seenRefs = new Set<string>();
  const seenCampaigns = new Set<string>();
  let pending: { ref: string; key: string | null; email: string | null; name: string; postalCode: string; line: number }[] = [];
  const flush = async () => {
    if (!pending.length) return;
    const refs = pending.map((p) => p.ref);
    const there = new Set((await db.selectFrom('donations').select('source_ref').where('source', '=', settings.source).where('source_ref', 'in', refs).execute()).map((r) => r.source_ref));
    const emails = [...new Set(pending.flatMap((p) => (p.email ? [p.email] : [])))];
    const known = new Set(emails.length ? (await db.selectFrom('donations').select('donor_email').where('donor_email', 'in', emails).where('source_ref', 'is', null).execute()).map((r) => r.donor_email) : []);
    for (const p of pending) {
      if (there.has(p.ref)) report.alreadyImported++;
      if (!p.key || seenDonors.has(p.key)) continue;
      seenDonors.add(p.key);
      if (p.email && known.has(p.email)) report.matchedByEmail++;
      else if (!p.email && (await knownByName(db, p.name, p.postalCode))) {
        if (report.matchedByName.length < MAX_LISTED) report.matchedByName.push({ line: p.line, name: p.name, postalCode: p.postalCode });
      } else report.newDonors++;
    }
    pending = [];
  };
  for await (const row of dataRows(data, settings.reading)) {
    report.lines++;
    const r = interpretLine(row.line, row.cells, index, settings.defaultMeans);
    if (!r.ok) {
      refuseLine(report, r.line, r.reason);
      continue;
    }
    const g = r.gift;
    if (seenRefs.has(g.ref)) {
      refuseLine(report, g.line, `la référence « ${g.ref} » figure déjà plus haut dans le fichier.`);
      continue;
    }
    seenRefs.add(g.ref);
    report.gifts++;
    report[g.status]++;
    if (g.status === 'succeeded') report.totalCents += g.amountCents;
    if (g.consentAt && g.email) report.subscribers++;
    if (g.campaign && !seenCampaigns.has(campaignKey(g.campaign))) {
      seenCampaigns.add(campaignKey(g.campaign));
      (campaigns.has(campaignKey(g.campaign)) ? report.campaignsFound : report.campaignsUnknown).push(g.campaign);
    }
    pending.push({ ref: g.ref, key: donorKey(g), email: g.email, name: g.name, postalCode: g.details.postalCode, line: g.line });
    if (pending.length >= LOOKUP_BATCH) await flush();
  }
  await flush();
}

/** A donor already here with this name and postal code (a gift of theirs not imported by this file's source). */
async function knownByName(db: DB, name: string, postalCode: string): Promise<boolean> {
  if (!name || !postalCode) return false;
  const row = await db
    .selectFrom('donations')
    .select('id')
    .where((eb) => eb.fn('lower', ['donor_name']), '=', name.toLowerCase())
    .where('tax_details', 'like', `%"postalCode":"${postalCode.replace(/["%_\\]/g, '')}"%`)
    .where('source_ref', 'is', null)
    .executeTakeFirst();
  return Boolean(row);
}

/** The presets an Admin can pick: the known exports, then the mappings saved. */
export async function listPresets(db: DB): Promise<{ id: string; label: string; mapping: Mapping }[]> {
  const saved = await db.selectFrom('import_presets').selectAll().orderBy('name').execute();
  return [...BUILT_IN_PRESETS.map((p) => ({ id: p.id, label: p.label, mapping: p.mapping })), ...saved.map((s) => ({ id: s.id, label: s.name, mapping: JSON.parse(s.mapping) as Mapping }))];
}

/** Saves a mapping for the next file (a name already used is replaced). */
export async function savePreset(db: DB, actor: Actor, name: string, mapping: Mapping): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('import_presets')
    .values({ id: randomUUID(), name, mapping: JSON.stringify(mapping), created_by: actor.name, created_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ mapping: JSON.stringify(mapping), created_by: actor.name, created_at: now }))
    .execute();
  await audit(db, actor, 'import.preset-saved', name, { mapping });
}
