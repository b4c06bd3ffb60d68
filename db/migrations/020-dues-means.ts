import type { Kysely } from 'kysely';

/**
 * One vocabulary for the means of payment (issue 39, means.ts): the dues history named mobile money
 * 'mobile_money' where every other table says 'mobileMoney'. The stored word follows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('membership_dues').set({ method: 'mobileMoney' }).where('method', '=', 'mobile_money').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.updateTable('membership_dues').set({ method: 'mobile_money' }).where('method', '=', 'mobileMoney').execute();
}
