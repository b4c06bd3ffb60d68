import type { DB } from '~db/index';
import { hashPassword } from '~/lib/password.server';
import { log } from '~/lib/log.server';
import { setupSchema } from './schemas';
import { countUsers, createFirstAdmin } from './users.server';

/**
 * ADMIN_EMAIL and ADMIN_PASSWORD create the first Admin at start while no user exists (automated
 * installs); afterwards they are ignored. A bad value stops the start with a clear message.
 */
export async function ensureFirstAdmin(db: DB, env: { ADMIN_EMAIL?: string; ADMIN_PASSWORD?: string }): Promise<void> {
  const email = env.ADMIN_EMAIL?.trim();
  const password = env.ADMIN_PASSWORD;
  if (!email && !password) return;
  if (!email || !password) throw new Error('Invalid environment configuration:\n  - ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  if ((await countUsers(db)) > 0) return;
  const parsed = setupSchema.safeParse({ name: 'Admin', email, password, confirm: password });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path[0] === 'email' ? 'ADMIN_EMAIL' : 'ADMIN_PASSWORD'}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const user = await createFirstAdmin(db, { name: 'Admin', email: parsed.data.email, passwordHash: await hashPassword(password) }, 'env');
  if (user) log.info('first admin created from ADMIN_EMAIL', { email: user.email });
}
