import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { DB } from '~db/index';
import type { MessageTable } from '~db/schema';
import { audit, type Actor } from '~/domain/audit/audit.server';
import type { Paged } from '~/domain/content/forms';
import { contains, pageOf } from '~/domain/content/store.server';
import type { Lang } from '~/lib/i18n';
import type { ContactInput } from './contact-schema';

export interface ContactMessage {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  message: string;
  language: string;
  readAt: string | null;
  createdAt: string;
}

function toMessage(r: Selectable<MessageTable>): ContactMessage {
  return {
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    message: r.message,
    language: r.language,
    readAt: r.read_at,
    createdAt: r.created_at,
  };
}

export async function createMessage(db: DB, input: ContactInput, language: Lang) {
  const row = {
    id: randomUUID(),
    first_name: input.firstName,
    last_name: input.lastName,
    email: input.email,
    message: input.message,
    language,
    read_at: null,
    created_at: new Date().toISOString(),
  };
  await db.insertInto('messages').values(row).execute();
  return row;
}

// ---- Back office -------------------------------------------------------------------------------

/** Newest first, a page at a time, searched in names, email and text; `unread` keeps unread ones only. */
export async function listMessagesPage(db: DB, { q, page, unread = false }: { q: string; page: number; unread?: boolean }): Promise<Paged<ContactMessage>> {
  const base = db
    .selectFrom('messages')
    .$if(q !== '', (qb) => qb.where((eb) => eb.or([contains('first_name', q), contains('last_name', q), contains('email', q), contains('message', q)])))
    .$if(unread, (qb) => qb.where('read_at', 'is', null));
  return pageOf(
    page,
    q,
    async () => (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
    async (limit, offset) => (await base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()).map(toMessage),
  );
}

export async function countUnreadMessages(db: DB): Promise<number> {
  const row = await db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('read_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One message, marked read the first time someone opens it. */
export async function readMessage(db: DB, id: string): Promise<ContactMessage | undefined> {
  await db.updateTable('messages').set({ read_at: new Date().toISOString() }).where('id', '=', id).where('read_at', 'is', null).execute();
  const row = await db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toMessage(row) : undefined;
}

export async function getMessage(db: DB, id: string): Promise<ContactMessage | undefined> {
  const row = await db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toMessage(row) : undefined;
}

export async function deleteMessage(db: DB, actor: Actor, id: string): Promise<ContactMessage | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('messages').where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return undefined;
    const message = toMessage(row);
    await audit(trx, actor, 'message.delete', `${message.firstName} ${message.lastName} <${message.email}>`, { id });
    return message;
  });
}

export function messageSender(m: Pick<ContactMessage, 'firstName' | 'lastName'>): string {
  return `${m.firstName} ${m.lastName}`.trim();
}
