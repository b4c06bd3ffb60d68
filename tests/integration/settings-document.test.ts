import { afterEach, beforeEach, expect, it } from 'vitest';
import { putSettingDocument, readSettingDocument, saveSettingDocument } from '~/lib/settings-document.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

const T0 = new Date('2026-11-28T10:00:00.000Z');

/** Settings documents (app/lib/settings-document.server.ts): read, saved under a version, or written whole. */
describeEachDialect('settings documents, on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.destroy();
  });
  const row = (key: string) => t.db.selectFrom('settings').select(['value', 'version', 'updated_at']).where('key', '=', key).executeTakeFirst();

  it('a document never saved reads as version 0 and no value; its first save is version 1', async () => {
    expect(await readSettingDocument(t.db, 'doc')).toEqual({ value: undefined, version: 0 });
    expect(await saveSettingDocument(t.db, 'doc', { a: 1 }, 0, T0)).toBe('ok');
    expect(await readSettingDocument(t.db, 'doc')).toEqual({ value: { a: 1 }, version: 1 });
    expect(await row('doc')).toEqual({ value: '{"a":1}', version: 1, updated_at: T0.toISOString() });
  });

  it('a save from an older read, or a second first save, is refused and writes nothing', async () => {
    expect(await saveSettingDocument(t.db, 'doc', { a: 1 }, 0, T0)).toBe('ok');
    expect(await saveSettingDocument(t.db, 'doc', { a: 2 }, 0, T0)).toBe('conflict');
    expect(await saveSettingDocument(t.db, 'doc', { a: 2 }, 1, new Date(T0.getTime() + 1000))).toBe('ok');
    expect(await saveSettingDocument(t.db, 'doc', { a: 3 }, 1, T0)).toBe('conflict');
    expect(await saveSettingDocument(t.db, 'other', { a: 3 }, 1, T0)).toBe('conflict');
    expect(await row('doc')).toEqual({ value: '{"a":2}', version: 2, updated_at: new Date(T0.getTime() + 1000).toISOString() });
    expect(await row('other')).toBeUndefined();
  });

  it('a mark written whole replaces what was there, without a version', async () => {
    await putSettingDocument(t.db, 'mark', { at: 'x' }, T0);
    await putSettingDocument(t.db, 'mark', { at: 'y' }, new Date(T0.getTime() + 5));
    expect(await row('mark')).toEqual({ value: '{"at":"y"}', version: 1, updated_at: new Date(T0.getTime() + 5).toISOString() });
  });

  it('a stored text that is not JSON reads as never filled in, keeping its version for the next save', async () => {
    await t.db.insertInto('settings').values({ key: 'broken', value: '{oops', version: 4, updated_at: T0.toISOString() }).execute();
    expect(await readSettingDocument(t.db, 'broken')).toEqual({ value: undefined, version: 4 });
    expect(await saveSettingDocument(t.db, 'broken', { fixed: true }, 4, T0)).toBe('ok');
    expect((await readSettingDocument(t.db, 'broken')).value).toEqual({ fixed: true });
  });
});
