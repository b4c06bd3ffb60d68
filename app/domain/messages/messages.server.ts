import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import type { Lang } from '~/lib/i18n';
import type { ContactInput } from './contact-schema';

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
