import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { senderSchema, type SenderSettings } from './sender';

/** The letters' sender, a document in `settings` guarded by its version (the payment settings' pattern). */
export const SENDER_KEY = 'letters.sender';

/** The saved sender and its version (0: never saved: letters use MAIL_FROM). */
export async function getSender(db: DB): Promise<{ sender: SenderSettings | undefined; version: number }> {
  const row = await db.selectFrom('settings').select(['value', 'version']).where('key', '=', SENDER_KEY).executeTakeFirst();
  if (!row) return { sender: undefined, version: 0 };
  const parsed = senderSchema.safeParse(JSON.parse(row.value));
  return { sender: parsed.success ? parsed.data : undefined, version: row.version };
}

/**
 * Saves the sender if nobody saved it since `version` was read (else 'conflict', nothing
 * written), audited with the old and new addresses.
 */
export async function saveSender(db: DB, actor: Actor, sender: SenderSettings, version: number, now = new Date()): Promise<'ok' | 'conflict'> {
  return db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom('settings').select(['value', 'version']).where('key', '=', SENDER_KEY).executeTakeFirst();
    if ((current?.version ?? 0) !== version) return 'conflict' as const;
    const value = JSON.stringify(sender);
    const at = now.toISOString();
    if (current) await trx.updateTable('settings').set({ value, version: version + 1, updated_at: at }).where('key', '=', SENDER_KEY).where('version', '=', version).execute();
    else await trx.insertInto('settings').values({ key: SENDER_KEY, value, version: 1, updated_at: at }).execute();
    const before = current ? (JSON.parse(current.value) as Partial<SenderSettings>) : {};
    await audit(trx, actor, 'letter.sender', SENDER_KEY, { from: before.email ?? null, to: sender.email, name: sender.name, unsubscribeMailbox: sender.unsubscribeMailbox });
    return 'ok' as const;
  });
}
