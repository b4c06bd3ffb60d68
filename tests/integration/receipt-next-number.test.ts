import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAttempt, findById, transition, type NewAttempt } from '~/domain/donations/ledger.server';
import { readSequence, seriesState, setNextReceiptNumber } from '~/domain/receipts/next-number.server';
import { receiptsOfDonation } from '~/domain/receipts/register.server';
import { parisYear } from '~/lib/paris';
import { runtime } from '~/lib/runtime.server';
import { action, loader } from '~/routes/receipts/admin-settings';
import { describeEachDialect, type TestDb, createTestDb } from '../support/db';
import { DONOR, setReceiptSettings } from '../support/receipts';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

/**
 * A foundation arriving with its receipts already at n° 1 843 (issue 43, ADR 037): the next number
 * of the current series is set forward only — never at or below a number taken —, audited, and
 * the next receipt takes it.
 */
const ADMIN = { id: 'admin-next', name: 'Alice Admin' };
const YEAR = parisYear(new Date());

describe('reading a typed receipt number', () => {
  it('takes digits with spaces or a leading n°, from 1 to 999 999', () => {
    expect(['1844', '1 844', ' n° 1 844 ', '1\u202f844', '999999', '1'].map(readSequence)).toEqual([1844, 1844, 1844, 1844, 999_999, 1]);
    expect(['', '0', '-5', '12a', '1.5e3', '1000000', '18,44'].map(readSequence)).toEqual([null, null, null, null, null, null, null]);
  });
});

describeEachDialect('the next receipt number on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    await setReceiptSettings(t.db);
  });
  afterAll(async () => {
    await t?.destroy();
  });
  const attempt: NewAttempt = { provider: 'stripe', amountMinor: 2500, currency: 'EUR', eurCents: 2500, frequency: 'once', language: 'fr', donorEmail: 'awa@example.org', taxDetails: JSON.stringify(DONOR) };
  async function receiptOfNewGift() {
    const d = await createAttempt(t.db, attempt);
    await transition(t.db, { id: d.id }, 'succeeded');
    return (await receiptsOfDonation(t.db, (await findById(t.db, d.id))!.id))[0];
  }
  const audits = () => t.db.selectFrom('audit_log').select(['user_id', 'target', 'details']).where('action', '=', 'receipts.next_number').execute();

  it('moves the series forward once, audited, and the next receipt takes the number', async () => {
    expect(await seriesState(t.db, 'RF')).toEqual({ year: YEAR, last: 0, next: 1, nextNumber: `RF-${YEAR}-000001` });
    expect(await setNextReceiptNumber(t.db, ADMIN, '1 844')).toEqual({ ok: true, changed: true, next: 1844 });
    expect(await seriesState(t.db, 'RF')).toMatchObject({ last: 1843, next: 1844, nextNumber: `RF-${YEAR}-001844` });
    expect((await audits()).map((a) => ({ ...a, details: JSON.parse(a.details) }))).toEqual([{ user_id: ADMIN.id, target: `Série ${YEAR} : prochain reçu n° 1844`, details: { year: YEAR, from: 1, to: 1844 } }]);
    expect(await receiptOfNewGift()).toMatchObject({ seq: 1844, number: `RF-${YEAR}-001844` });
    expect(await receiptOfNewGift()).toMatchObject({ seq: 1845 });
  });

  it('refuses a number at or below one taken, and below one already set; the next one as it is changes nothing', async () => {
    for (const typed of ['1845', '1844', '12']) {
      const r = await setNextReceiptNumber(t.db, ADMIN, typed);
      expect(r).toEqual({ ok: false, error: `Le n° ${Number(typed)} est déjà passé : le dernier numéro de la série ${YEAR} est le n° 1845. Le prochain ne peut qu’avancer, à partir du n° 1846.` });
    }
    expect(await setNextReceiptNumber(t.db, ADMIN, '1846')).toEqual({ ok: true, changed: false, next: 1846 });
    expect(await setNextReceiptNumber(t.db, ADMIN, 'deux mille')).toEqual({ ok: false, error: 'Un numéro entier de 1 à 999 999.' });
    expect(await setNextReceiptNumber(t.db, ADMIN, '2000')).toMatchObject({ ok: true, changed: true });
    // A number set is a floor too: going back to 1 900 is refused.
    expect(await setNextReceiptNumber(t.db, ADMIN, '1900')).toMatchObject({ ok: false });
    expect(await seriesState(t.db, 'RF')).toMatchObject({ last: 1999, next: 2000 });
    expect(await audits()).toHaveLength(2);
    expect(await receiptOfNewGift()).toMatchObject({ seq: 2000 });
  });
});

describeEachDialect('the receipts settings screen sets the next number on %s', (dialect) => {
  let stop: () => Promise<void>;
  let admin: string;
  let editor: string;
  beforeAll(async () => {
    vi.stubEnv('THV_RUN_JOBS', '0');
    ({ stop } = await startTestRuntime(dialect, 'next-number-secret-'.padEnd(48, 'n')));
    admin = await sessionCookie(runtime().db, { id: 'a-next', name: 'Ada Admin', email: 'ada@fondation.example.org', role: 'Admin' });
    editor = await sessionCookie(runtime().db, { id: 'e-next', name: 'Éva', email: 'eva@fondation.example.org', role: 'Éditeur' });
  });
  afterAll(async () => {
    await stop?.();
    vi.unstubAllEnvs();
  });
  const post = (cookie: string, fields: Record<string, string>) =>
    action({ request: new Request('http://localhost/admin/receipts/parametres', { method: 'POST', headers: { cookie, origin: 'http://localhost' }, body: new URLSearchParams(fields) }), context: routeContext(), params: {} } as never);

  it('shows the next number, sets it for an Admin, refuses going back with a sentence, and an Éditeur not at all', async () => {
    const get = () => loader({ request: new Request('http://localhost/admin/receipts/parametres', { headers: { cookie: admin } }), context: routeContext(), params: {} } as never);
    expect(answer(await get()).body.series).toMatchObject({ next: 1, nextNumber: `RF-${YEAR}-000001` });
    expect(answer(await post(admin, { intent: 'nextNumber', next: '1844' })).body.toast).toMatchObject({ title: 'Le prochain reçu portera le n° 1844.' });
    expect(answer(await get()).body.series).toMatchObject({ next: 1844 });
    const refused = answer(await post(admin, { intent: 'nextNumber', next: '100' }));
    expect(refused.status).toBe(400);
    expect((refused.body.errors as Record<string, string>).next).toContain('Le prochain ne peut qu’avancer');
    await expect(post(editor, { intent: 'nextNumber', next: '5000' })).rejects.toMatchObject({ init: { status: 403 } });
    expect(answer(await get()).body.series).toMatchObject({ next: 1844 });
  });
});
