import type { DB } from '~db/index';
import type { Editable, WriteOutcome } from '~/domain/revisions/editables.server';
import type { Snapshot } from '~/domain/revisions/editorial';
import { LETTER_STATES, type Audience, type LetterVersions } from './letter';

/**
 * Letters in the editorial workflow (ADR 015, ADR 022): each save of a letter's content keeps a
 * revision, its history screen compares and restores them, and a form sent on an older version is
 * refused. Only a draft or a scheduled letter is written; once sending starts its content is fixed.
 * A letter is never "published" to visitors: it has no public page and no draft of its own.
 */
export const LETTER_TYPE = 'letter';

export interface LetterSnapshot {
  versions: LetterVersions;
  audience: Audience;
}

export const letterSnapshot = (versions: LetterVersions, audience: Audience): Snapshot => ({ versions, audience }) as unknown as Snapshot;

/**
 * Writes a letter's content if it is still at `version` and may still change; raises its version.
 * In the caller's transaction.
 */
export async function writeLetterContent(trx: DB, id: string, snapshot: Snapshot, version: number, now = new Date()): Promise<WriteOutcome> {
  const { versions, audience } = snapshot as unknown as LetterSnapshot;
  const r = await trx
    .updateTable('letters')
    .set({ versions: JSON.stringify(versions), audience_language: audience.language, audience_source: audience.source, audience_segment: audience.segment ?? '', version: version + 1, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('version', '=', version)
    .where('status', 'in', ['draft', 'scheduled'])
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 1) return 'ok';
  const exists = await trx.selectFrom('letters').select('id').where('id', '=', id).executeTakeFirst();
  return exists ? 'conflict' : 'notFound';
}

export const letterEditable: Editable = {
  type: LETTER_TYPE,
  noun: 'cette lettre',
  area: 'letters',
  adminPath: '/admin/lettres',
  async read(db, id) {
    const r = await db.selectFrom('letters').select(['versions', 'audience_language', 'audience_source', 'audience_segment', 'status', 'version']).where('id', '=', id).executeTakeFirst();
    if (!r || !(LETTER_STATES as readonly string[]).includes(r.status)) return undefined;
    const versions = JSON.parse(r.versions) as LetterVersions;
    return {
      snapshot: letterSnapshot(versions, { language: r.audience_language as Audience['language'], source: r.audience_source as Audience['source'], segment: r.audience_segment }),
      version: Number(r.version),
      published: false,
      label: versions.fr.subject,
    };
  },
  write: (trx, id, snapshot, version) => writeLetterContent(trx, id, snapshot, version),
  asPublished: (snapshot) => snapshot,
  fieldLabels: { subject: 'Objet', body: 'Texte', link: 'Lien', image: 'Image', language: 'Langue des abonnés', source: 'Origine des abonnés', segment: 'Segment de donateurs' },
};
