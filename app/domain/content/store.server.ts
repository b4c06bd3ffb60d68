import { randomBytes } from 'node:crypto';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '~db/index';
import { PAGE_SIZE, type Paged } from './forms';

/** Timestamp-based ids, with a random tail so two saves in one millisecond differ. */
export function newId(now = Date.now()): string {
  return `${now}${randomBytes(3).toString('hex')}`;
}

/**
 * `lower(column) LIKE '%text%'` on both dialects (LIKE is case-sensitive on PostgreSQL), with the
 * searched text's own % and _ taken literally.
 */
export function contains(column: string, text: string): Expression<SqlBool> {
  const escaped = text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '\\'`;
}

type Table = 'projects' | 'blog_posts' | 'partners' | 'page_content' | 'settings' | 'campaigns';
const KEY: Record<Table, string> = { projects: 'id', blog_posts: 'id', partners: 'id', page_content: 'page_id', settings: 'key', campaigns: 'id' };

/**
 * Writes `values` to the row if nobody changed it since `version` was read (optimistic
 * concurrency): `conflict` when someone did, `notFound` when it is gone.
 */
export async function updateVersioned(
  trx: DB,
  table: Table,
  id: string,
  version: number,
  values: Record<string, unknown>,
): Promise<'ok' | 'conflict' | 'notFound'> {
  const db = trx as unknown as Kysely<any>;
  const key = KEY[table];
  const result = await db
    .updateTable(table)
    .set({ ...values, version: version + 1, updated_at: new Date().toISOString() })
    .where(key, '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return 'ok';
  const exists = await db.selectFrom(table).select(key).where(key, '=', id).executeTakeFirst();
  return exists ? 'conflict' : 'notFound';
}

/** One page of a list and the total it was cut from. */
export async function pageOf<T>(
  page: number,
  q: string,
  count: () => Promise<number | string | bigint>,
  rows: (limit: number, offset: number) => Promise<T[]>,
): Promise<Paged<T>> {
  const total = Number(await count());
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const current = Math.min(page, pages);
  const items = await rows(PAGE_SIZE, (current - 1) * PAGE_SIZE);
  return { items, total, page: current, pages, q };
}

