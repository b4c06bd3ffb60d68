import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { readSettingDocument, saveSettingDocument } from '~/lib/settings-document.server';
import { senderSchema, type SenderSettings } from './sender';

/** The letters' sender, a document in `settings` guarded by its version (the payment settings' pattern). */
export const SENDER_KEY = 'letters.sender';

/** The saved sender and its version (0: never saved: letters use MAIL_FROM). */
export async function getSender(db: DB): Promise<{ sender: SenderSettings | undefined; version: number }> {
  const { value, version } = await readSettingDocument(db, SENDER_KEY);
  const parsed = senderSchema.safeParse(value);
  return { sender: parsed.success ? parsed.data : undefined, version };
}

/**
 * Saves the sender if nobody saved it since `version` was read (else 'conflict', nothing
 * written), audited with the old and new addresses.
 */
export async function saveSender(db: DB, actor: Actor, sender: SenderSettings, version: number, now = new Date()): Promise<'ok' | 'conflict'> {
  return db.transaction().execute(async (trx) => {
    const current = await readSettingDocument(trx, SENDER_KEY);
    if ((await saveSettingDocument(trx, SENDER_KEY, sender, version, now)) !== 'ok') return 'conflict' as const;
    const before = (current.value ?? {}) as Partial<SenderSettings>;
    await audit(trx, actor, 'letter.sender', SENDER_KEY, { from: before.email ?? null, to: sender.email, name: sender.name, unsubscribeMailbox: sender.unsubscribeMailbox });
    return 'ok' as const;
  });
}
