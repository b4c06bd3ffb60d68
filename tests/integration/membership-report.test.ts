import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyDuesPayment, revokeDuesPayment } from '~/domain/membership/dues.server';
import { createMember } from '~/domain/membership/register.server';
import { membershipReport } from '~/domain/membership/report.server';
import { createType } from '~/domain/membership/types.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { memberInput, membershipType } from '../support/membership';

const ADMIN = { id: 'u1', name: 'Alice Admin' };

/** The reports' membership figures read from the register on both databases (ADR 021). */
describeEachDialect('membership report on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    const type = await createType(t.db, ADMIN, membershipType());
    const pay = async (id: string, paymentId: string, paidAt: string, amountCents = 3000) => applyDuesPayment(t.db, { membershipId: id, paymentId, amountCents, paidAt, method: 'card' });
    // Joined March 2025, renewed in grace March 2026.
    const a = (await createMember(t.db, null, memberInput(type, { first_name: 'Awa' }))).id;
    await pay(a, 'a1', '2025-03-10T10:00:00.000Z');
    await pay(a, 'a2', '2026-03-20T10:00:00.000Z', 3500);
    // Joined March 2025, never renewed: lapses 9 April 2026.
    const b = (await createMember(t.db, null, memberInput(type, { first_name: 'Bruno' }))).id;
    await pay(b, 'b1', '2025-03-12T10:00:00.000Z');
    // Joined in April 2026 at 23:30 UTC on the 30th: 1 May in Paris. Then refunded a renewal.
    const c = (await createMember(t.db, null, memberInput(type, { first_name: 'Chloé' }))).id;
    await pay(c, 'c1', '2026-04-30T23:30:00.000Z');
    await pay(c, 'c2', '2026-05-02T10:00:00.000Z');
    await revokeDuesPayment(t.db, { paymentId: 'c2', at: '2026-05-03T10:00:00.000Z', reason: 'refunded' });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('counts members and dues month by month, Paris days, refunds deducted, a year earlier beside', async () => {
    const r = await membershipReport(t.db, ['2026-03', '2026-04', '2026-05'], new Date('2026-06-15T10:00:00Z'));
    expect(r.months.map(({ month, active, new: n, renewed, lapsed, dues, previousDues }) => [month, active, n, renewed, lapsed, dues, previousDues])).toEqual([
      ['2026-03', 2, 0, 1, 0, { dues: 1, cents: 3500 }, { dues: 2, cents: 6000 }],
      ['2026-04', 1, 0, 0, 1, { dues: 0, cents: 0 }, { dues: 0, cents: 0 }],
      ['2026-05', 2, 1, 0, 0, { dues: 1, cents: 3000 }, { dues: 0, cents: 0 }],
    ]);
    expect(r.activeAtEnd).toBe(2);
    expect(r.totals).toEqual({ new: 1, renewed: 1, lapsed: 1, dues: { dues: 2, cents: 6500 }, previousDues: { dues: 2, cents: 6000 } });
  });

  it('reads the current month on today and nothing of a month to come', async () => {
    const r = await membershipReport(t.db, ['2026-04', '2026-05'], new Date('2026-04-05T10:00:00Z'));
    expect(r.months.map((m) => [m.month, m.active, m.lapsed, m.new])).toEqual([
      ['2026-04', 2, 0, 0],
      ['2026-05', 0, 0, 0],
    ]);
    expect(r.activeAtEnd).toBe(2);
  });
});
