/**
 * A letter's audience among the donors' segments (ADR 040): the segments the editor offers, and the
 * server's check that the one chosen exists (the letters read the donors register, never the reverse).
 */
import type { DB } from '~db/index';
import { getSegment, listSegments } from '~/domain/people/segments.server';
import type { Audience } from './letter';

/** The segments a letter may go to: the ready-made ones, then the saved ones. */
export async function segmentChoices(db: DB): Promise<{ id: string; name: string }[]> {
  return (await listSegments(db)).map((s) => ({ id: s.id, name: s.name }));
}

/** The form's field errors about the audience's segment: none when there is none or it exists. */
export async function audienceErrors(db: DB, audience: Audience): Promise<Record<string, string>> {
  if (!audience.segment || (await getSegment(db, audience.segment))) return {};
  return { audienceSegment: 'Ce segment n’existe pas ou plus : choisissez-en un dans la liste.' };
}

/** The subjects of letters not yet sending whose audience is this segment (it may not be deleted while they wait). */
export async function lettersWaitingFor(db: DB, segmentId: string): Promise<string[]> {
  const rows = await db.selectFrom('letters').select('versions').where('audience_segment', '=', segmentId).where('status', 'in', ['draft', 'scheduled']).orderBy('created_at').execute();
  return rows.map((r) => (JSON.parse(r.versions) as { fr: { subject: string } }).fr.subject);
}
