/**
 * The import itself (ADR 036), once its dry run found nothing that stops it: the file read again
 * from where it stopped, in batches that each commit their gifts (through the ledger's
 * `recordImportedGifts`) together with how far they went, so that a restart — or another
 * instance, once the lease is past — resumes where it stopped and adds nothing twice. Nothing is
 * mailed, no receipt is issued. Then its undoing, as a whole, while nothing depends on its gifts.
 */
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { createEndedCampaign, deleteUnusedCampaign } from '~/domain/campaigns/imported.server';
import { deleteImportedGifts, recordImportedGifts, type ImportedGift } from '~/domain/donations/ledger.server';
import { giftsDeletedFor } from '~/domain/people/figures.server';
import { meansFilter, storedAs } from '~/domain/means/means';
import { CONSENT_WORDING_VERSION } from '~/domain/subscribers/consent';
import { joinFromConsent, removeJoinedBy } from '~/domain/subscribers/subscribers.server';
import { importedDuesId, removeImportedMembers } from '~/domain/membership/imported.server';
import { log } from '~/lib/log.server';
import type { Storage } from '~/lib/storage.server';
import { campaignsByTitle, columnsFor, fileOf, getImport, reportOf, settingsOf } from './imports.server';
import type { ImportSettings } from './settings';
import type { MemberLine } from './members';
import { importMembers, resolveMember, typesByName } from './members.server';
import type { Field } from './fields';
import { campaignKey, interpretLine, type ImportedLine } from './lines';
import { readRows } from './read.server';

export const BATCH_LINES = 2000;
const LEASE_MS = 2 * 60 * 1000;
/** The proof kept with each subscriber an import brought: which import. */
export const consentRef = (importId: string) => `import:${importId}`;
/** Who the background import acts as in the audit trail (campaigns it creates). */
const IMPORT_ACTOR: Actor = { id: null, name: 'Import' };

/** Starts a checked import (its dry run stopped nothing): it is then run in the background, and resumed after a restart. */
export async function startImport(db: DB, actor: Actor, id: string): Promise<boolean> {
  const i = await getImport(db, id);
  if (!i || i.status !== 'checked' || reportOf(i)?.fatal) return false;
  const moved = await db.updateTable('imports').set({ status: 'running', started_at: new Date().toISOString() }).where('id', '=', id).where('status', '=', 'checked').executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  await audit(db, actor, 'import.started', i.file_name, { import: id, lines: i.total_lines });
  return true;
}

/** Takes the import for `LEASE_MS` (none other runs it meanwhile); false when another holds it or it is not running. */
async function claim(db: DB, id: string): Promise<boolean> {
  const now = new Date();
  const r = await db
    .updateTable('imports')
    .set({ lease_until: new Date(now.getTime() + LEASE_MS).toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now.toISOString())]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

const toGift = (importId: string, source: string, g: ImportedLine, campaignId: string | null): ImportedGift => ({
  importId,
  source,
  sourceRef: g.ref,
  provider: storedAs(g.means),
  method: meansFilter(g.means).method ?? null,
  at: g.at,
  amountCents: g.amountCents,
  status: g.status,
  donorName: g.name || null,
  donorEmail: g.email,
  language: g.language,
  taxDetails: g.name || g.details.address ? JSON.stringify(g.details) : null,
  campaignId,
  externalReceiptNumber: g.receiptNumber,
});

/**
 * Runs (or resumes) a running import to its end, batch by batch; `stopAfter` batches for tests of
 * a restart. Answers the lines done.
 */
export async function runImport(db: DB, storage: Storage, id: string, opts: { stopAfter?: number; batchLines?: number } = {}): Promise<number> {
  if (!(await claim(db, id))) return 0;
  const i = (await getImport(db, id))!;
  const settings = settingsOf(i);
  const batchLines = opts.batchLines ?? BATCH_LINES;
  try {
    const data = await fileOf(storage, i);
    const header: string[] = [];
    let index: Partial<Record<Field, number>> | undefined;
    let done = i.cursor;
    let seen = 0;
    let batches = 0;
    const writer = settings.kind === 'members' ? await memberWriter(db, id, settings) : await giftWriter(db, id, settings);
    const commit = async (upTo: number) => {
      await writer.commit(upTo);
      done = upTo;
      batches++;
    };
    for await (const row of readRows(data, settings.reading)) {
      if (!index) {
        header.push(...row.cells.map((c) => c.trim()));
        const cols = columnsFor(settings, header);
        if (!cols.ok) throw new Error(cols.message);
        index = cols.index;
        continue;
      }
      seen++;
      if (seen <= done) continue;
      writer.read(row.line, row.cells, index);
      if (seen - done >= batchLines) {
        await commit(seen);
        if (opts.stopAfter && batches >= opts.stopAfter) {
          await db.updateTable('imports').set({ lease_until: null }).where('id', '=', id).execute();
          return done;
        }
      }
    }
    await commit(seen);
    await db.updateTable('imports').set({ status: 'done', finished_at: new Date().toISOString(), lease_until: null, total_lines: seen }).where('id', '=', id).execute();
    const after = (await getImport(db, id))!;
    await audit(db, { id: null, name: 'Import' }, 'import.done', i.file_name, { import: id, lines: seen, imported: after.imported_count });
    return seen;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    log.warn('import failed', { import: id, error: message });
    await db.updateTable('imports').set({ status: 'failed', error: message, lease_until: null }).where('id', '=', id).execute();
    return 0;
  }
}

/** How a batch of lines is read and written: gifts, or members. */
interface Writer {
  read(line: number, cells: string[], index: Partial<Record<Field, number>>): void;
  /** Writes the lines read and moves the cursor to `upTo` (with the lines written). */
  commit(upTo: number): Promise<void>;
}

const moveCursor = (trx: DB, id: string, upTo: number, written: number) =>
  trx
    .updateTable('imports')
    .set((eb) => ({ cursor: upTo, imported_count: eb('imported_count', '+', written), lease_until: new Date(Date.now() + LEASE_MS).toISOString() }))
    .where('id', '=', id)
    .execute();

/** Gifts: each batch's gifts, the campaigns they name that are not here, and the cursor, in one transaction; then the consents. */
async function giftWriter(db: DB, id: string, settings: ImportSettings): Promise<Writer> {
  const campaigns = await campaignsByTitle(db);
  let batch: ImportedLine[] = [];
  return {
    read(line, cells, index) {
      const r = interpretLine(line, cells, index, settings.defaultMeans);
      if (r.ok) batch.push(r.gift);
    },
    async commit(upTo) {
      const lines = batch;
      const consents = batch.filter((g) => g.consentAt && g.email && g.status !== 'failed');
      batch = [];
      const created = new Map<string, string>();
      await db.transaction().execute(async (trx) => {
        // Campaigns the file names and that are not here: created ended, in the batch's transaction, recorded for the undo.
        for (const g of lines) {
          const key = campaignKey(g.campaign);
          if (!key || campaigns.has(key) || created.has(key)) continue;
          const campaignId = await createEndedCampaign(trx, IMPORT_ACTOR, g.campaign);
          created.set(key, campaignId);
          const row = { import_id: id, kind: 'campaign', source: settings.source, source_ref: key, record_id: campaignId, created_at: new Date().toISOString() };
          await trx.insertInto('import_records').values(row).onConflict((oc) => oc.columns(['kind', 'source', 'source_ref']).doUpdateSet({ import_id: id, record_id: campaignId, created_at: row.created_at })).execute();
        }
        const gifts = lines.map((g) => toGift(id, settings.source, g, campaigns.get(campaignKey(g.campaign)) ?? created.get(campaignKey(g.campaign)) ?? null));
        await moveCursor(trx, id, upTo, await recordImportedGifts(trx, gifts));
      });
      for (const [key, campaignId] of created) campaigns.set(key, campaignId);
      // The consent's proof: its date and the file's source; no confirmation is mailed (joinFromConsent mails nothing).
      for (const g of consents) {
        await joinFromConsent(db, { email: g.email!, language: g.language, source: 'import', givenAt: g.consentAt!, wordingVersion: `import:${settings.source}`, ref: consentRef(id) });
      }
    },
  };
}

/** Members: each line through the membership area (its own transactions, idempotent by the dues' payment id), then the cursor. */
async function memberWriter(db: DB, id: string, settings: ImportSettings): Promise<Writer> {
  const types = await typesByName(db);
  let batch: { member: MemberLine; typeId: string }[] = [];
  return {
    read(line, cells, index) {
      const r = resolveMember(line, cells, index, settings, types);
      if (r.ok) batch.push(r);
    },
    async commit(upTo) {
      const lines = batch;
      batch = [];
      const written = await importMembers(db, id, settings.source, lines);
      await moveCursor(db, id, upTo, written);
    },
  };
}

/** Runs every running import no one holds (after a restart, or a crash): the job's turn. */
export async function resumeImports(db: DB, storage: Storage): Promise<number> {
  const now = new Date().toISOString();
  const open = await db
    .selectFrom('imports')
    .select('id')
    .where('status', '=', 'running')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .execute();
  for (const { id } of open) await runImport(db, storage, id);
  return open.length;
}

/** Resumes running imports a few seconds after start, then every minute. */
export function startImportJob(deps: () => { db: DB; storage: Storage }): () => void {
  const run = () =>
    resumeImports(deps().db, deps().storage).catch((e) => log.warn('imports resume failed', { error: e instanceof Error ? e.message : String(e) }));
  const first = setTimeout(run, 5_000);
  const timer = setInterval(run, 60_000);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

/** Why an import cannot be undone (a sentence), or null when nothing depends on its gifts. */
export async function undoBlocker(db: DB, id: string): Promise<string | null> {
  const i = await getImport(db, id);
  if (!i) return 'Import introuvable.';
  if (i.status !== 'done' && i.status !== 'failed') return i.status === 'undone' ? 'Cet import est déjà annulé.' : 'Seul un import terminé peut être annulé.';
  const ids = db.selectFrom('donations').select('id').where('import_id', '=', id);
  const receipt = await db.selectFrom('receipts').select('number').where('donation_id', 'in', ids).executeTakeFirst();
  if (receipt) return `Un reçu fiscal (n° ${receipt.number}) a été émis ici pour un don de cet import : annulez d’abord ce reçu.`;
  // An annual receipt summing some of its gifts (when imported gifts count in the annual statement).
  const annual = await db.selectFrom('receipts').select(['number', 'donation_ids']).where('kind', '=', 'annual').where('status', '=', 'issued').execute();
  if (annual.length) {
    const mine = new Set((await db.selectFrom('donations').select('id').where('import_id', '=', id).where('status', '=', 'succeeded').execute()).map((r) => r.id));
    const covering = annual.find((r) => (JSON.parse(r.donation_ids) as string[]).some((g) => mine.has(g)));
    if (covering) return `Le reçu annuel n° ${covering.number} compte des dons de cet import : annulez d’abord ce reçu.`;
  }
  const dispute = await db.selectFrom('payment_disputes').select('id').where('donation_id', 'in', ids).executeTakeFirst();
  if (dispute) return 'Un litige de paiement porte sur un don de cet import.';
  return null;
}

export type UndoResult = { ok: true; gifts: number; subscribers: number; campaigns: number; members: number } | { ok: false; message: string };

/** Undoes a finished import as a whole: its gifts, the subscribers it alone brought and the campaigns it created that nothing else uses, audited, in one transaction. */
export async function undoImport(db: DB, storage: Storage, actor: Actor, id: string): Promise<UndoResult> {
  const blocker = await undoBlocker(db, id);
  if (blocker) return { ok: false, message: blocker };
  const result = await db.transaction().execute(async (trx) => {
    const moved = await trx.updateTable('imports').set({ status: 'undone', undone_at: new Date().toISOString() }).where('id', '=', id).where('status', 'in', ['done', 'failed']).returning(['file_name', 'file_key', 'started_at', 'created_at']).executeTakeFirst();
    if (!moved) return undefined;
    const deleted = await deleteImportedGifts(trx, id);
    const gifts = deleted.count;
    // The register's figures of these donors (ADR 038): its fold never sees a deleted row.
    await giftsDeletedFor(trx, deleted.emails);
    const subscribers = await removeJoinedBy(trx, consentRef(id));
    // The campaigns it created, once its gifts are gone, unless another gift names them or they were edited since.
    let campaigns = 0;
    const made = await trx.selectFrom('import_records').select('record_id').where('import_id', '=', id).where('kind', '=', 'campaign').execute();
    for (const m of made) if (await deleteUnusedCampaign(trx, actor, m.record_id)) campaigns++;
    // The dues it recorded, and the members it entered that have nothing else.
    const joined = await trx.selectFrom('import_records').select(['source', 'source_ref']).where('import_id', '=', id).where('kind', '=', 'member').execute();
    const members = await removeImportedMembers(trx, joined.map((m) => importedDuesId(m.source, m.source_ref)), moved.started_at ?? moved.created_at);
    await trx.deleteFrom('import_records').where('import_id', '=', id).execute();
    await audit(trx, actor, 'import.undone', moved.file_name, { import: id, gifts, subscribers, campaigns, members, dues: joined.length });
    return { gifts, subscribers, campaigns, members, key: moved.file_key };
  });
  if (!result) return { ok: false, message: 'Cet import est déjà annulé.' };
  await storage.delete(result.key);
  return { ok: true, gifts: result.gifts, subscribers: result.subscribers, campaigns: result.campaigns, members: result.members };
}
