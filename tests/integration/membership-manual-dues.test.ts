import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { recordSucceeded } from '~/domain/donations/ledger.server';
import { applyDuesPayment } from '~/domain/membership/dues.server';
import { parisDay } from '~/lib/paris';
import { addDays, yearFrom } from '~/domain/membership/period';
import { createMember, duesHistory, getMember } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import { runtime } from '~/lib/runtime.server';
import { action as memberAction, loader as memberPage } from '~/routes/membership/admin-member';
import { describeEachDialect } from '../support/db';
import { memberInput, membershipType } from '../support/membership';
import { DONOR, setReceiptSettings } from '../support/receipts';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'manual-dues-'.padEnd(48, 'm');
const ORIGIN = 'https://fondation.example.org';
const SYSTEM = { id: null, name: 'Test' };

type Page = { manual: { token: string; amount: string; today: string } | null; member: { state: string; endsOn: string }; dues: { method: string; source: string; amount: string; status: string; voidable: string | null }[] };

/**
 * Dues received by hand (issue 32 item 5), through the member page's route as React Router calls
 * it: the Admin's cheque goes through the ledger (one `donations` row, succeeded, audited under the
 * Admin's name), the same 'payment.succeeded' event applies it (period from the old end, the
 * member mailed), a deductible type's receipt takes the gifts' next number; a double submission
 * records one payment; an Éditeur is refused.
 */
describeEachDialect('manual dues payments through the ledger, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let admin = '';
  let editor = '';
  let active = '';
  let deductible = '';
  const db = () => runtime().db;
  beforeAll(async () => {
    // No background job behind the routes' back (the reminders have their own tests).
    vi.stubEnv('THV_RUN_JOBS', '0');
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN });
    admin = await sessionCookie(db(), { id: 'a1', name: 'Ada Admin', email: 'ada@fondation.example.org', role: 'Admin' });
    editor = await sessionCookie(db(), { id: 'e1', name: 'Éva', email: 'eva@fondation.example.org', role: 'Éditeur' });
    active = await createType(db(), SYSTEM, membershipType());
    deductible = await createType(db(), SYSTEM, membershipType({ name_fr: 'Membre donateur', dues: '50', tax_deductible: 'on' }));
  });
  afterAll(async () => {
    await app?.stop();
    vi.unstubAllEnvs();
  });

  async function call(route: (args: never) => unknown, id: string, cookie: string, body?: Record<string, string>) {
    const path = `/admin/adhesions/membres/${id}`;
    const request = new Request(`${ORIGIN}${path}`, body ? { method: 'POST', headers: { cookie, Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() } : { headers: { cookie } });
    try {
      return await route({ request, context: routeContext(), params: { memberId: id }, unstable_pattern: '' } as never);
    } catch (thrown) {
      return thrown;
    }
  }
  const page = async (id: string) => (await call(memberPage, id, admin)) as Page;
  const today = () => parisDay(new Date().toISOString());
  const cheque = (token: string, over: Record<string, string> = {}) => ({ intent: 'dues', token, means: 'cheque', amount: '30,00', received_on: today(), reference: 'CHQ 0012345', note: 'Remis à l’AG', ...over });
  const paymentsOf = (membershipId: string) =>
    db()
      .selectFrom('membership_payments')
      .innerJoin('donations', 'donations.id', 'membership_payments.payment_id')
      .select(['donations.id', 'provider', 'provider_ref', 'secondary_ref', 'status', 'purpose', 'amount_minor', 'succeeded_at', 'kind', 'recorded_by'])
      .where('membership_id', '=', membershipId)
      .execute();

  it('an Admin records a cheque: one succeeded payment in the ledger, audited, and the pending member is up to date and mailed', async () => {
    const m = await createMember(db(), SYSTEM, memberInput(active, { email: 'cheque@example.org', first_name: 'Chloé' }));
    const before = await page(m.id);
    expect(before.member.state).toBe('pending');
    expect(before.manual).toMatchObject({ amount: '30,00', today: today() });
    const done = answer(await call(memberAction, m.id, admin, cheque(before.manual!.token)));
    expect(done.status).toBe(200);
    expect(done.body.toast).toMatchObject({ title: 'Cotisation enregistrée' });

    const [p] = await paymentsOf(m.id);
    expect(p).toMatchObject({ provider: 'cheque', secondary_ref: 'CHQ 0012345', status: 'succeeded', purpose: 'dues', amount_minor: 3000, kind: 'manual', recorded_by: 'Ada Admin' });
    expect(p.succeeded_at!.slice(0, 10)).toBe(today());
    const line = await db().selectFrom('audit_log').selectAll().where('action', '=', 'donation.recorded').where('details', 'like', `%${p.id}%`).executeTakeFirstOrThrow();
    expect(line).toMatchObject({ user_id: 'a1', user_name: 'Ada Admin', target: '30.00 EUR (cheque)' });
    expect(JSON.parse(line.details)).toMatchObject({ reference: 'CHQ 0012345', note: 'Remis à l’AG', receivedOn: today(), purpose: 'dues' });

    const after = await page(m.id);
    expect(after.member).toMatchObject({ state: 'active' });
    expect(after.dues).toEqual([expect.objectContaining({ method: 'Chèque', source: 'Saisie par Ada Admin', status: 'Payée' })]);
    expect((await getMember(db(), m.id, today(), 30))?.endsOn).toBe(yearFrom(today()));
    const mails = await db().selectFrom('mail_outbox').select(['subject']).where('to', '=', 'cheque@example.org').execute();
    expect(mails.map((x) => x.subject)).toEqual(['Votre adhésion à la Fondation THV est active']);
    // A fresh token for the next payment.
    expect(after.manual!.token).not.toBe(before.manual!.token);
  });

  it('the same form submitted twice, even with another means, records one payment', async () => {
    const m = await createMember(db(), SYSTEM, memberInput(active, { email: 'double@example.org' }));
    const { token } = (await page(m.id)).manual!;
    const answers = await Promise.all([call(memberAction, m.id, admin, cheque(token)), call(memberAction, m.id, admin, cheque(token))]);
    const again = answer(await call(memberAction, m.id, admin, cheque(token, { means: 'cash' })));
    expect(again.body.toast).toMatchObject({ title: 'Cette cotisation était déjà enregistrée' });
    expect(answers.map((a) => (answer(a).body.toast as { title: string }).title).sort()).toEqual(['Cette cotisation était déjà enregistrée', 'Cotisation enregistrée']);
    expect(await paymentsOf(m.id)).toHaveLength(1);
    expect(await duesHistory(db(), m.id)).toHaveLength(1);
    expect(await db().selectFrom('donations').select('id').where('provider_ref', '=', `offline:${token}`).execute()).toHaveLength(1);
  });

  it('a cheque for a member still up to date extends from the old end, never from today', async () => {
    const m = await createMember(db(), SYSTEM, memberInput(active, { email: 'early@example.org' }));
    const first = await applyDuesPayment(db(), { membershipId: m.id, paymentId: 'online-early', amountCents: 3000, paidAt: new Date(Date.now() - 300 * 86_400_000).toISOString(), method: 'card' });
    if (first.status !== 'applied') throw new Error('not applied');
    await call(memberAction, m.id, admin, cheque((await page(m.id)).manual!.token, { means: 'transfer', reference: '' }));
    const after = await getMember(db(), m.id, today(), 30);
    expect(after?.periods.at(-1)).toEqual({ start: addDays(first.endsOn, 1), end: yearFrom(addDays(first.endsOn, 1)) });
    const [p] = await paymentsOf(m.id);
    expect(p).toMatchObject({ provider: 'transfer', secondary_ref: null });
    expect((await page(m.id)).dues.map((d) => d.method)).toEqual(['Virement', 'Carte']);
  });

  it('deductible dues recorded by hand take the next receipt number in the gifts’ sequence', async () => {
    await setReceiptSettings(db());
    const gift = await recordSucceeded(db(), { provider: 'stripe', providerRef: 'pi_manual_gift', amountMinor: 2500, currency: 'EUR', eurCents: 2500, frequency: 'once', language: 'fr', taxDetails: JSON.stringify(DONOR) });
    const m = await createMember(db(), SYSTEM, memberInput(deductible, { email: 'deduct-cash@example.org', first_name: 'Fatou', last_name: 'Sow' }));
    await call(memberAction, m.id, admin, cheque((await page(m.id)).manual!.token, { means: 'cash', amount: '50', reference: '' }));
    const [p] = await paymentsOf(m.id);
    const receipts = await db().selectFrom('receipts').select(['number', 'donation_id', 'amount_cents', 'method']).where('donation_id', 'in', [gift.donation!.id, p.id]).orderBy('number').execute();
    expect(receipts.map((r) => r.donation_id)).toEqual([gift.donation!.id, p.id]);
    const seq = receipts.map((r) => Number(r.number.split('-').at(-1)));
    expect(seq[1]).toBe(seq[0] + 1);
    expect(receipts[1]).toMatchObject({ amount_cents: 5000, method: 'Espèces' });
    expect((await page(m.id)).dues).toEqual([expect.objectContaining({ method: 'Espèces', source: 'Saisie par Ada Admin' })]);
    const [mail] = await db().selectFrom('mail_outbox').select(['text']).where('to', '=', 'deduct-cash@example.org').execute();
    expect(mail.text).toContain(receipts[1].number);
  });

  it('an Admin takes back a mistyped entry with a reason: the payment and its receipt are cancelled, audited, the period revoked, then the right amount is recorded', async () => {
    await setReceiptSettings(db());
    const m = await createMember(db(), SYSTEM, memberInput(deductible, { email: 'typo@example.org' }));
    await call(memberAction, m.id, admin, cheque((await page(m.id)).manual!.token, { amount: '500' }));
    const [wrong] = await paymentsOf(m.id);
    const shown = await page(m.id);
    expect(shown.member.state).toBe('active');
    expect(shown.dues).toEqual([expect.objectContaining({ amount: expect.stringMatching(/^500,00\s€$/), status: 'Payée', voidable: wrong.id })]);
    const receipt = await db().selectFrom('receipts').select(['id', 'status']).where('donation_id', '=', wrong.id).executeTakeFirstOrThrow();
    expect(receipt.status).toBe('issued');

    // No reason: refused beside that row's field, nothing moves; an Éditeur is refused outright.
    const noReason = answer(await call(memberAction, m.id, admin, { intent: 'void-dues', payment_id: wrong.id, reason: '  ' }));
    expect(noReason).toMatchObject({ status: 400, body: { errors: { [`void:${wrong.id}`]: 'Champ obligatoire.' } } });
    expect(answer(await call(memberAction, m.id, editor, { intent: 'void-dues', payment_id: wrong.id, reason: 'Erreur' })).status).toBe(403);
    expect((await paymentsOf(m.id))[0].status).toBe('succeeded');

    const done = answer(await call(memberAction, m.id, admin, { intent: 'void-dues', payment_id: wrong.id, reason: 'Montant mal saisi (50 €)' }));
    expect(done.body.toast).toMatchObject({ title: 'Saisie annulée' });
    expect((await paymentsOf(m.id))[0].status).toBe('cancelled');
    expect(await db().selectFrom('receipts').select(['status', 'cancel_reason']).where('id', '=', receipt.id).executeTakeFirstOrThrow()).toEqual({ status: 'cancelled', cancel_reason: 'Saisie annulée : Montant mal saisi (50 €)' });
    const line = await db().selectFrom('audit_log').selectAll().where('action', '=', 'donation.voided').where('details', 'like', `%${wrong.id}%`).executeTakeFirstOrThrow();
    expect(line).toMatchObject({ user_name: 'Ada Admin', target: '500.00 EUR (cheque)' });
    expect(JSON.parse(line.details)).toMatchObject({ reason: 'Montant mal saisi (50 €)', purpose: 'dues' });
    const after = await page(m.id);
    expect(after.member.state).toBe('pending');
    expect(after.dues).toEqual([expect.objectContaining({ status: 'Annulée', voidable: null })]);
    // Sent again: nothing more to take back.
    expect(answer(await call(memberAction, m.id, admin, { intent: 'void-dues', payment_id: wrong.id, reason: 'Encore' })).status).toBe(409);

    await call(memberAction, m.id, admin, cheque(after.manual!.token, { amount: '50' }));
    expect((await page(m.id)).member.state).toBe('active');
    expect((await paymentsOf(m.id)).map((p) => [p.amount_minor, p.status]).sort()).toEqual([[5000, 'succeeded'], [50000, 'cancelled']]);
  });

  it('only a hand-recorded payment of this member can be taken back: not an online payment, not another member’s', async () => {
    const a = await createMember(db(), SYSTEM, memberInput(active, { email: 'void-a@example.org' }));
    const b = await createMember(db(), SYSTEM, memberInput(active, { email: 'void-b@example.org' }));
    await call(memberAction, a.id, admin, cheque((await page(a.id)).manual!.token));
    const [paid] = await paymentsOf(a.id);
    expect(answer(await call(memberAction, b.id, admin, { intent: 'void-dues', payment_id: paid.id, reason: 'Erreur' })).status).toBe(409);
    const online = await recordSucceeded(db(), { provider: 'stripe', providerRef: 'pi_void_online', purpose: 'dues', amountMinor: 3000, currency: 'EUR', eurCents: 3000, frequency: 'once', language: 'fr' });
    await db().insertInto('membership_payments').values({ payment_id: online.donation!.id, membership_id: b.id, kind: 'join', created_at: new Date().toISOString(), recorded_by: null }).execute();
    expect(answer(await call(memberAction, b.id, admin, { intent: 'void-dues', payment_id: online.donation!.id, reason: 'Erreur' })).status).toBe(409);
    expect((await db().selectFrom('donations').select('status').where('id', 'in', [paid.id, online.donation!.id]).execute()).map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('refuses a wrong form with French messages and an Éditeur outright; nothing is written', async () => {
    const m = await createMember(db(), SYSTEM, memberInput(active, { email: 'refused@example.org' }));
    const { token } = (await page(m.id)).manual!;
    const bad = answer(await call(memberAction, m.id, admin, cheque(token, { means: 'bitcoin', amount: '-5', received_on: addDays(today(), 1), reference: 'x'.repeat(61) })));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      means: 'Choisissez un moyen de paiement.',
      amount: 'Un montant en euros supérieur à 0, 100 000 € au plus.',
      received_on: 'La date de réception ne peut pas être dans le futur.',
      reference: '60 caractères au plus.',
    });
    expect(answer(await call(memberAction, m.id, admin, cheque(token, { received_on: '2026-02-30' }))).body.errors).toEqual({ received_on: 'Une date valide (AAAA-MM-JJ).' });
    expect(answer(await call(memberAction, m.id, admin, cheque('forged'))).body.errors).toEqual({ token: 'Formulaire périmé : rechargez la page.' });
    expect(answer(await call(memberAction, m.id, editor, cheque(token))).status).toBe(403);
    expect(((await call(memberPage, m.id, editor)) as Page).manual).toBeNull();
    expect(await paymentsOf(m.id)).toEqual([]);
    expect(await db().selectFrom('donations').select('id').where('provider_ref', '=', `offline:${token}`).execute()).toEqual([]);
    expect((await getMember(db(), m.id, today(), 30))?.state).toBe('pending');
    // An exempt member has no dues to record: no form, and the action refuses.
    const exempt = await createMember(db(), SYSTEM, memberInput(active, { email: 'exempt@example.org', exempt: true }));
    expect((await page(exempt.id)).manual).toBeNull();
    const none = answer(await call(memberAction, exempt.id, admin, cheque(token)));
    expect(none).toMatchObject({ status: 400, body: { toast: { title: 'Cotisation non enregistrée' } } });
    expect(await paymentsOf(exempt.id)).toEqual([]);
  });
});
