import { afterAll, beforeAll, expect, it } from 'vitest';
import { getPaymentSettings } from '~/domain/donations/providers/settings.server';
import { handleStripeWebhook, startCardDonation, type DonationDeps } from '../support/payment-entry';
import { useSignInLink } from '~/domain/donors/links.server';
import { DONOR_COOKIE } from '~/routes/donors/session.server';
import { annualReceiptsOf, donorExportCsv, eraseDonorData, exportDonorData, historyOf } from '~/domain/donors/personal-data.server';
import { parisYear } from '~/lib/paris';
import { receiptPdfById } from '~/domain/receipts/mail.server';
import { cancelReceipt, issueAnnualStatements, issuedReceiptsOfEmail, receiptsOfDonation, type Receipt } from '~/domain/receipts/register.server';
import { correctReceipt } from '~/domain/donations/ledger.server';
import { parseEnv } from '~/lib/env.server';
import { runtime } from '~/lib/runtime.server';
import { loader as receiptLoader } from '~/routes/donors/receipt';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { describeEachDialect } from '../support/db';
import { enableStripeCard } from '../support/donations';
import { signInLinkToken } from '../support/donors';
import { DONOR, setReceiptSettings } from '../support/receipts';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'donor-receipts-'.padEnd(48, 'r');
const WHSEC = 'whsec_donor_receipts';
const ORIGIN = 'https://fondation.example.org';
const YEAR = parisYear(new Date());
const A = 'awa.diallo@example.org';
const B = 'jean.martin@example.org';
const C = 'mensuel@example.org';

/**
 * The donor's own tax receipts in the donor space: the history links the receipt of each gift,
 * the download route serves it only to the donor it is made out to, the export lists the
 * receipts, and erasure leaves them as the law requires. The route is called as React Router
 * calls it, on a running app (its database on SQLite or PostgreSQL).
 */
describeEachDialect('a donor’s tax receipts on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let stripe: FakeStripe;
  let deps: DonationDeps;
  const db = () => runtime().db;

  beforeAll(async () => {
    app = await startTestRuntime(dialect, APP_SECRET);
    stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => 'http://127.0.0.1:1/unused' });
    await enableStripeCard(db(), APP_SECRET, { secretKey: 'sk_test_donor_receipts', webhookSecret: WHSEC });
    await setReceiptSettings(db());
    deps = { db: db(), settings: await getPaymentSettings(db(), APP_SECRET), env: parseEnv({ STRIPE_API_BASE: stripe.url }), publicUrl: ORIGIN };
  });
  afterAll(async () => {
    await stripe?.close();
    await app?.stop();
  });

  /** A card gift with the donor's tax details, paid through the fake Checkout and confirmed by its signed webhook. */
  async function give(email: string, cents: number, monthly = false) {
    const { donation } = await startCardDonation(deps, { amountCents: cents, monthly, lang: 'fr', taxDetails: JSON.stringify(DONOR) });
    const ev = stripe.complete(donation.provider_ref, { customer_details: { email, name: 'Awa Diallo' } });
    expect((await handleStripeWebhook(deps, ev.payload, ev.header)).status).toBe(200);
    return donation;
  }

  /** Signs in through a single-use link, as the donor does, and returns the cookie. */
  async function signIn(email: string) {
    const session = await useSignInLink(db(), await signInLinkToken(db(), email, `10.9.${email.length}.1`));
    expect(session?.email).toBe(email.toLowerCase());
    return `${DONOR_COOKIE}=${session!.token}`;
  }

  /** GET /mon-espace/recus/:id through the route's loader: its response, or where it redirects. */
  async function download(id: string, cookie?: string): Promise<Response> {
    const request = new Request(`${ORIGIN}/mon-espace/recus/${id}`, { headers: cookie ? { Cookie: cookie } : {} });
    try {
      return await receiptLoader({ request, params: { receiptId: id }, context: undefined } as never);
    } catch (e) {
      if (e instanceof Response) return e;
      throw e;
    }
  }

  let giftReceipt: Receipt;
  let cancelled: Receipt;

  it('links each gift of the history to its issued receipt, and only those', async () => {
    // The payment page gave the address with capitals: the receipt keeps it as written.
    const first = await give('Awa.Diallo@Example.org', 5000);
    const second = await give(A, 1500);
    [giftReceipt] = await receiptsOfDonation(db(), first.id);
    [cancelled] = await receiptsOfDonation(db(), second.id);
    expect(giftReceipt).toMatchObject({ kind: 'gift', status: 'issued', donor_email: 'Awa.Diallo@Example.org', amount_cents: 5000 });
    expect((await cancelReceipt(db(), { id: null, name: 'Admin' }, cancelled.id, 'Erreur de saisie')).ok).toBe(true);
    // A gift without tax details has no receipt.
    const { donation: bare } = await startCardDonation(deps, { amountCents: 800, monthly: false, lang: 'fr', taxDetails: null });
    const ev = stripe.complete(bare.provider_ref, { customer_details: { email: A, name: 'Awa Diallo' } });
    expect((await handleStripeWebhook(deps, ev.payload, ev.header)).status).toBe(200);

    const history = await historyOf(db(), A);
    const urlOf = (id: string) => history.find((h) => h.id === id)?.receiptUrl;
    expect(history).toHaveLength(3);
    expect(urlOf(first.id)).toBe(`/mon-espace/recus/${giftReceipt.id}`);
    expect(urlOf(second.id)).toBeNull();
    expect(urlOf(bare.id)).toBeNull();
    expect((await issuedReceiptsOfEmail(db(), 'AWA.DIALLO@example.org')).map((r) => r.id)).toEqual([giftReceipt.id]);
    // A gift receipt is not an annual one.
    expect(await annualReceiptsOf(db(), A)).toEqual([]);
  });

  it('serves the receipt’s PDF to the donor it is made out to, and a 404 to anyone else', async () => {
    const cookieA = await signIn(A);
    const res = await download(giftReceipt.id, cookieA);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
    expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="recu-fiscal-${giftReceipt.number}.pdf"`);
    const admin = await receiptPdfById(db(), giftReceipt.id, runtime().storage);
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), admin!.pdf)).toBe(0);

    // Another donor, signed in, cannot fetch it by its id.
    await give(B, 2000);
    const cookieB = await signIn(B);
    const other = await download(giftReceipt.id, cookieB);
    expect(other.status).toBe(404);
    expect(other.headers.get('Content-Type')).toBe('text/plain');
    // B's own receipt opens for B, not for A.
    const [mineB] = await issuedReceiptsOfEmail(db(), B);
    expect((await download(mineB.id, cookieB)).status).toBe(200);
    expect((await download(mineB.id, cookieA)).status).toBe(404);
    // An unknown id, and a cancelled receipt of A's, are not found either.
    expect((await download('00000000-0000-4000-8000-000000000000', cookieA)).status).toBe(404);
    expect((await download('inconnu', cookieA)).status).toBe(404);
    expect((await download(cancelled.id, cookieA)).status).toBe(404);
    // Without a session: back to the sign-in form.
    const anonymous = await download(giftReceipt.id);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('Location')).toBe('/mon-espace');
    expect(anonymous.headers.get('Set-Cookie')).toBeNull();
    // A cookie that names no live session (ended, expired): the same, and the browser forgets it.
    const stale = await download(giftReceipt.id, `${DONOR_COOKIE}=plus-valable`);
    expect(stale.status).toBe(302);
    expect(stale.headers.get('Location')).toBe('/mon-espace');
    // The stale cookie is cleared in each language's space.
    expect(stale.headers.getSetCookie()).toEqual(['/mon-espace', '/en/mon-espace', '/es/mon-espace'].map((path) => `__donor=; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=0; Secure`));
  });

  it('lists an annual receipt in its own section and serves it', async () => {
    await setReceiptSettings(db(), { model: 'annual_monthly' });
    try {
      const monthly = await give(C, 1200, true);
      expect(await receiptsOfDonation(db(), monthly.id)).toEqual([]);
      const issued = (await issueAnnualStatements(db(), YEAR, new Date(Date.UTC(YEAR + 1, 0, 5, 9)))).filter((r) => r.donor_email === C);
      expect(issued).toHaveLength(1);
      expect(await annualReceiptsOf(db(), C)).toEqual([
        { id: issued[0].id, number: issued[0].number, year: YEAR, amountCents: 1200, issuedAt: issued[0].issued_at, url: `/mon-espace/recus/${issued[0].id}` },
      ]);
      // A monthly gift under the annual model has no receipt of its own in the history.
      expect((await historyOf(db(), C)).map((h) => h.receiptUrl)).toEqual([null]);
      const res = await download(issued[0].id, await signIn(C));
      expect(res.status).toBe(200);
      expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), (await receiptPdfById(db(), issued[0].id, runtime().storage))!.pdf)).toBe(0);
    } finally {
      await setReceiptSettings(db(), { model: 'each' });
    }
  });

  it('exports the donor’s receipts, cancelled ones included, in JSON and CSV', async () => {
    const x = await exportDonorData(db(), A);
    expect(x.receipts).toHaveLength(2);
    expect(x.receipts.find((r) => r.id === giftReceipt.id)).toEqual({
      id: giftReceipt.id,
      number: giftReceipt.number,
      kind: 'gift',
      year: giftReceipt.year,
      amount: '50.00',
      currency: 'EUR',
      issuedAt: giftReceipt.issued_at,
      status: 'issued',
      cancelledAt: null,
    });
    expect(x.receipts.find((r) => r.id === cancelled.id)).toMatchObject({ number: cancelled.number, status: 'cancelled', amount: '15.00' });
    // One line per receipt, in the file's columns (record;id;date;amount;currency;amount_eur;method;status;…;email;language;details;
    // then the gifts' own columns, empty here).
    const lines = donorExportCsv(x)
      .split('\r\n')
      .filter((l) => l.startsWith('"tax_receipt"'))
      .map((l) => l.split(';').map((c) => c.slice(1, -1)));
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l[1] === giftReceipt.number)).toEqual(['tax_receipt', giftReceipt.number, giftReceipt.issued_at, '50.00', 'EUR', '50.00', '', 'issued', '', '', A, '', `gift ${giftReceipt.year}`, ...Array(16).fill('')]);
    expect(lines.find((l) => l[1] === cancelled.number)?.[7]).toMatch(/^cancelled \d{4}-\d\d-\d\dT/);
    // Another donor's export does not carry A's receipts.
    expect((await exportDonorData(db(), B)).receipts.map((r) => r.number)).not.toContain(giftReceipt.number);
  });

  it('keeps every receipt row intact when the donor erases their data, and a correction does not bring the details back', async () => {
    const before = await db().selectFrom('receipts').selectAll().orderBy('id').execute();
    expect(before.filter((r) => r.donor_email?.toLowerCase() === A)).toHaveLength(2);
    const pdf = (await receiptPdfById(db(), giftReceipt.id, runtime().storage))!.pdf;
    const taxDetailsOf = async (id: string) => (await db().selectFrom('donations').select('tax_details').where('id', '=', id).executeTakeFirstOrThrow()).tax_details;
    expect(JSON.parse((await taxDetailsOf(giftReceipt.donation_id!))!)).toEqual(DONOR);
    const result = await eraseDonorData(db(), A, { id: null, name: 'Donateur' });
    expect(result).toMatchObject({ ok: true, donations: 3 });
    // The gifts no longer name the donor, nor keep their postal address…
    expect(await historyOf(db(), A)).toEqual([]);
    expect(await taxDetailsOf(giftReceipt.donation_id!)).toBeNull();
    // …but the register is exactly as it was, and the receipts still reprint the same.
    expect(await db().selectFrom('receipts').selectAll().orderBy('id').execute()).toEqual(before);
    const after = await receiptPdfById(db(), giftReceipt.id, runtime().storage);
    expect(after?.receipt.status).toBe('issued');
    expect(Buffer.compare(after!.pdf, pdf)).toBe(0);
    // An Admin may still correct the receipt (the register is the legal copy); the erased gift stays erased.
    const moved = { ...DONOR, address: '9 rue des Acacias' };
    const corrected = await correctReceipt(db(), { id: null, name: 'Admin' }, giftReceipt.id, moved, 'Adresse');
    expect(corrected).toMatchObject({ ok: true, receipt: { donation_id: giftReceipt.donation_id, donor: JSON.stringify(moved) } });
    expect(await taxDetailsOf(giftReceipt.donation_id!)).toBeNull();
  });
});
