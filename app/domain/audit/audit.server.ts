import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import type { Role } from '~/domain/users/permissions';
import type { ActivityEntry } from './audit';

/** Who acted: a signed-in user, or nobody known (a failed sign-in, a reset request). */
export interface Actor {
  id: string | null;
  name: string;
}

export const ANONYMOUS: Actor = { id: null, name: 'Anonyme' };

/** Keys that must never reach the log, whatever a caller passes. */
const SECRET_KEY = /pass|token|secret|hash|key|cookie|session/i;

function scrub(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(details).filter(([k, v]) => !SECRET_KEY.test(k) && v !== undefined));
}

let lastAt = 0;
/**
 * An entry's time, later than the previous entry's written by this process (by 1 ms when the clock
 * has not moved): the log is read newest first, and two events of one request often fall in the
 * same millisecond, where their order would otherwise be left to their random ids.
 */
function entryTime(): string {
  lastAt = Math.max(Date.now(), lastAt + 1);
  return new Date(lastAt).toISOString();
}

/**
 * Writes one entry: who, what (action), on what (target), when, and details that help a reader
 * (never a password, token or secret). Pass the open transaction when there is one.
 */
export async function audit(db: DB, actor: Actor, action: string, target: string, details: Record<string, unknown> = {}): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: randomUUID(),
      at: entryTime(),
      user_id: actor.id,
      user_name: actor.name,
      action,
      target,
      details: JSON.stringify(scrub(details)),
    })
    .execute();
}

/** Events about the site's content: what an Éditeur sees of the audit log (their role's need). */
export const CONTENT_ACTION_PREFIXES = ['page.', 'project.', 'post.', 'partner.', 'campaign.', 'media.', 'message.'];
/** Details an Éditeur never sees: other staff's addresses are personal data beyond their need. */
const ADMIN_ONLY_DETAILS = new Set(['ip']);

/**
 * The latest entries a role may read: an Admin everything; an Éditeur content events only,
 * without IP addresses.
 */
export async function recentActivity(db: DB, limit = 10, role: Role = 'Admin'): Promise<ActivityEntry[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (role !== 'Admin') query = query.where((eb) => eb.or(CONTENT_ACTION_PREFIXES.map((p) => eb('action', 'like', `${p}%`))));
  const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => {
    const details = JSON.parse(r.details) as Record<string, unknown>;
    const shown = role === 'Admin' ? details : Object.fromEntries(Object.entries(details).filter(([k]) => !ADMIN_ONLY_DETAILS.has(k)));
    return { id: r.id, at: r.at, userName: r.user_name, action: r.action, target: r.target, details: shown };
  });
}
