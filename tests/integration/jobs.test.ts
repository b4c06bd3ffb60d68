import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DB, type DbHandle } from '~db/index';
import { onceAcrossInstances } from '~/domain/donations/deps.server';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, createSession } from '~/domain/users/sessions.server';
import { setLogSink } from '~/lib/log.server';
import { hashToken } from '~/lib/tokens.server';
import { pruneHourly } from '../../server/runtime-hooks';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

describeEachDialect('periodic jobs with several instances on %s', (dialect) => {
  let t: TestDb;
  let other: DbHandle;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    const url = t.pool ? (t.pool as unknown as { options: { connectionString: string } }).options.connectionString : undefined;
    other = openDatabase({ databaseUrl: url, dataDir: t.dataDir });
  });
  afterAll(async () => {
    await other.close();
    await t.destroy();
  });

  it('runs a job once per window, whichever instance asks first', async () => {
    let runs = 0;
    const job = async () => {
      runs++;
    };
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => onceAcrossInstances(t.db, 'recheck-test', 60_000, job)),
      ...Array.from({ length: 5 }, () => onceAcrossInstances(other.db, 'recheck-test', 60_000, job)),
    ]);
    expect(runs).toBe(1);
    expect(results.filter(Boolean)).toHaveLength(1);
    // Another job has its own window.
    expect(await onceAcrossInstances(other.db, 'another-job', 60_000, job)).toBe(true);
    expect(runs).toBe(2);
  });
});

describeEachDialect("the areas' hourly pruning on %s", (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(() => t.destroy());

  it('removes ended back-office sessions (a users job, composed in server/runtime-hooks.ts) and keeps live ones', async () => {
    const now = new Date().toISOString();
    await t.db.insertInto('users').values({ id: 'u-prune', name: 'Prune', email: 'prune@example.org', role: 'Admin', password_hash: 'x', version: 1, created_at: now, updated_at: now }).execute();
    const live = await createSession(t.db, 'u-prune');
    const idle = await createSession(t.db, 'u-prune', new Date(Date.now() - SESSION_IDLE_MS - 1000));
    const ended = await createSession(t.db, 'u-prune', new Date(Date.now() - SESSION_ABSOLUTE_MS - 1000));
    expect(await t.db.selectFrom('sessions').select('id').execute()).toHaveLength(3);
    await pruneHourly(t.db, 30);
    const left = (await t.db.selectFrom('sessions').select('id').execute()).map((r) => r.id);
    expect(left).toEqual([hashToken(live.token)]);
    expect(left).not.toContain(hashToken(idle.token));
    expect(left).not.toContain(hashToken(ended.token));
  });

  it("logs 'pruning failed' and throws nothing when a step fails (the next hour tries again)", async () => {
    const lines: string[] = [];
    const restoreLog = setLogSink((level, line) => void lines.push(`${level} ${line}`));
    try {
      await expect(pruneHourly({} as DB, 30)).resolves.toBeUndefined();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^warn .*"msg":"pruning failed"/);
    } finally {
      setLogSink(restoreLog);
    }
  });
});
