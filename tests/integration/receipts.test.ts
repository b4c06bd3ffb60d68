import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { openDatabase, type DbHandle } from '~db/index';
import { createAttempt, findById, findByRef, transition } from '~/domain/donations/ledger.server';
import { getPaymentSettings, savePaymentSettings } from '~/domain/donations/providers/settings.server';
import { handleStripeWebhook, startCardDonation, type DonationDeps } from '../support/payment-entry';
import { renderReceiptPdf } from '~/domain/receipts/pdf.server';
import { parisYear } from '~/lib/paris';
import { donorTaxDetails } from '~/domain/receipts/donate-form.server';
import { issueAnnualStatements, listReceipts, receiptsOfDonation, totalsOf, type Receipt } from '~/domain/receipts/register.server';
import { correctReceipt } from '~/domain/donations/ledger.server';
import { receiptPdfById } from '~/domain/receipts/mail.server';
import { januaryRun } from '~/domain/receipts/jobs.server';
import { I18nContext, makeI18n, type Lang } from '~/lib/i18n';
import { detectLang, messagesFor } from '~/lib/i18n.server';
import { parseEnv } from '~/lib/env.server';
import { runtime } from '~/lib/runtime.server';
import { action as providerWebhook } from '~/routes/payments/webhook';
import DonatePage, { action as donateAction, loader as donateLoader } from '~/routes/site/donate';
import { createBackup, restoreBackup } from '~/lib/backup.server';
import { diskStorage } from '~/lib/storage.server';
import { getEditableSiteSettings, saveSiteSettings } from '~/domain/settings/site-settings.server';
import { startFakeCoinGate, type FakeCoinGate } from '../fakes/coingate';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { createTestDb, DIALECTS, type TestDb, describeEachDialect } from '../support/db';
import { imagesDrawn } from '../support/pdf';
import { DONOR, setReceiptSettings } from '../support/receipts';
import { makePng } from '../support/media-files';
import { enablePayPalAndFlutterwave } from '../support/donations';
import { answer, routeContext } from '../support/routes';
import { startTestRuntime } from '../support/runtime';
import { startSmtp } from '../support/smtp';
import { sitePath } from '~/lib/lang-path';

const APP_SECRET = 'test-secret-'.padEnd(48, 'z');
const WHSEC = 'whsec_test_secret';
const YEAR = parisYear(new Date());

async function pdfText(pdf: Buffer): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(doc, { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

async function stripeDeps(db: DbHandle['db'], stripeUrl: string): Promise<DonationDeps> {
  return { db, settings: await getPaymentSettings(db, APP_SECRET), env: parseEnv({ STRIPE_API_BASE: stripeUrl }), publicUrl: 'https://dons.example.org' };
}

async function enableStripe(db: DbHandle['db']) {
  const form = {
    stripe: { enabled: true, publishableKey: 'pk_test_1', products: [] },
    paypal: { enabled: false, clientId: '', webhookId: '', mode: 'sandbox' as const },
    coingate: { enabled: false, mode: 'sandbox' as const },
    mobileMoney: { enabled: false, integrationType: 'api' as const, provider: 'flutterwave' as const, publicKey: '', currency: 'XOF' as const, paymentUrl: '' },
  };
  const saved = await savePaymentSettings(db, APP_SECRET, form, { set: { 'stripe.secretKey': 'sk_test_123', 'stripe.webhookSecret': WHSEC }, clear: [] }, 0);
  if (!saved.ok) throw new Error('save failed');
}

/** A fresh database with card payments and complete receipt settings, and a Stripe fake. */
async function receiptsWorld(dialect: (typeof DIALECTS)[number]): Promise<{ t: TestDb; stripe: FakeStripe }> {
  const t = await createTestDb(dialect);
  const stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => 'http://127.0.0.1:1/unused' });
  await enableStripe(t.db);
  await setReceiptSettings(t.db);
  return { t, stripe };
}

describeEachDialect('tax receipts on %s', (dialect) => {
  let t: TestDb;
  let stripe: FakeStripe;
  let deps: DonationDeps;

  beforeAll(async () => {
    ({ t, stripe } = await receiptsWorld(dialect));
    deps = await stripeDeps(t.db, stripe.url);
    await t.db
      .insertInto('users')
      .values({ id: 'admin-1', name: 'Admin', email: 'admin@example.org', role: 'Admin', password_hash: 'x', version: 1, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' })
      .execute();
  });
  afterAll(async () => {
    await stripe?.close();
    await t?.destroy();
  });

  /** A card gift with the donor's details, confirmed by the signed webhook `times` times. */
  async function cardGift(cents: number, opts: { lang?: 'fr' | 'en' | 'es'; tax?: string | null; times?: number; email?: string } = {}) {
    const { donation } = await startCardDonation(deps, { amountCents: cents, monthly: false, lang: opts.lang ?? 'fr', taxDetails: opts.tax === undefined ? JSON.stringify(DONOR) : opts.tax });
    const ev = stripe.complete(donation.provider_ref, opts.email ? { customer_details: { email: opts.email, name: 'Awa Diallo' } } : {});
    for (let i = 0; i < (opts.times ?? 1); i++) expect((await handleStripeWebhook(deps, ev.payload, ev.header)).status).toBe(200);
    return donation;
  }
  const counter = async () => (await t.db.selectFrom('receipt_counters').select('last').where('year', '=', YEAR).executeTakeFirst())?.last ?? 0;
  const webhook = async (e: { payload: string; header: string }) => expect((await handleStripeWebhook(deps, e.payload, e.header)).status).toBe(200);
  /** A monthly gift paid through the fake Checkout, then `renewals` instalments Stripe took and told us of. */
  async function monthlyGift(cents: number, renewals: number, email = 'donor@example.org') {
    const { donation } = await startCardDonation(deps, { amountCents: cents, monthly: true, lang: 'fr', taxDetails: JSON.stringify(DONOR) });
    await webhook(stripe.complete(donation.provider_ref, { customer_details: { email, name: 'Awa Diallo' } }));
    const session = stripe.sessions.get(donation.provider_ref);
    const invoices: string[] = [session.invoice];
    const ids = [donation.id];
    for (let i = 0; i < renewals; i++) {
      const renewal = stripe.renew(session.subscription);
      await webhook(renewal);
      invoices.push(renewal.invoice.id);
      ids.push((await findByRef(t.db, 'stripe', renewal.invoice.id))!.id);
    }
    /** Each instalment: its ledger row and the Stripe invoice it paid. */
    return ids.map((id, i) => ({ id, invoice: invoices[i] }));
  }
  const refundNotices = async () => (await t.db.selectFrom('mail_outbox').select(['subject', 'text']).where('to', '=', 'admin@example.org').where('subject', 'like', 'Reçu fiscal annulé%').execute()).length;

  it('issues one numbered receipt when a gift is confirmed, however often the webhook is replayed, and mails it', async () => {
    const donation = await cardGift(2000, { lang: 'en', times: 6 });
    const receipts = await receiptsOfDonation(t.db, donation.id);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ number: `RF-${YEAR}-000001`, seq: 1, year: YEAR, status: 'issued', amount_cents: 2000, method: 'Carte bancaire', donor_email: 'donor@example.org' });
    expect(receipts[0].sent_at).not.toBeNull();
    expect(await counter()).toBe(1);
    const mail = await t.db.selectFrom('mail_outbox').selectAll().where('to', '=', 'donor@example.org').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Receipt for your donation to the THV Foundation');
    expect(mail.text).toContain(`Your tax receipt no. RF-${YEAR}-000001 is attached to this message (PDF document, in French).`);
  });

  it('reads the donate form’s receipt fields only while receipts are on', async () => {
    const form = (v: Record<string, string>) => (k: string) => v[k] ?? '';
    const full = { tax_kind: 'individual', tax_name: 'Awa Diallo', tax_address: '3 rue des Lilas', tax_postalCode: '75011', tax_city: 'Paris' };
    expect(await donorTaxDetails(t.db, form(full))).toEqual({ ok: true, taxDetails: JSON.stringify({ ...DONOR }) });
    expect(await donorTaxDetails(t.db, form({ tax_optOut: 'on' }))).toEqual({ ok: true, taxDetails: null });
    const missing = await donorTaxDetails(t.db, form({ tax_name: 'Awa' }));
    expect(missing.ok === false && missing.errors.map((e) => e.field)).toEqual(['address', 'postalCode', 'city']);
    await setReceiptSettings(t.db, { enabled: false });
    expect(await donorTaxDetails(t.db, form({ tax_name: 'Awa' }))).toEqual({ ok: true, taxDetails: null });
    await setReceiptSettings(t.db);
  });

  it('issues none, and takes no number, for a donor who wants none, when receipts are off or incomplete', async () => {
    const before = await counter();
    const optedOut = await cardGift(1000, { tax: null });
    expect(await receiptsOfDonation(t.db, optedOut.id)).toEqual([]);
    await setReceiptSettings(t.db, { enabled: false });
    const off = await cardGift(1000);
    await setReceiptSettings(t.db, { signatoryTitle: '' });
    const incomplete = await cardGift(1000);
    await setReceiptSettings(t.db);
    expect(await receiptsOfDonation(t.db, off.id)).toEqual([]);
    expect(await receiptsOfDonation(t.db, incomplete.id)).toEqual([]);
    expect(await counter()).toBe(before);
    const mail = await t.db.selectFrom('mail_outbox').select('text').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(mail.text).not.toContain('reçu fiscal n°');
  });

  it('prints every mention of the CERFA 11580 model and the amount in French words, the same bytes every time', async () => {
    const donation = await cardGift(123_456);
    const [receipt] = await receiptsOfDonation(t.db, donation.id);
    const pdf = await renderReceiptPdf(receipt);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const mention of [
      'Reçu au titre des dons à certains organismes d’intérêt général',
      'CERFA n° 11580',
      'Articles 200, 238 bis et 978 du code général des impôts',
      `Numéro d’ordre du reçu : ${receipt.number}`,
      'Nom ou dénomination : Fondation THV',
      'Adresse : 12 rue de la Paix, 75002 Paris',
      'N° SIREN / RNA : 123456789',
      'Objet : Aide humanitaire et développement en Afrique de l’Ouest',
      'Qualité de l’organisme : X Fondation reconnue d’utilité publique',
      'Nom et prénom : Awa Diallo',
      'Adresse : 3 rue des Lilas, 75011 Paris, France',
      '1 234,56 €',
      'Somme en toutes lettres : mille deux cent trente-quatre euros et cinquante-six centimes',
      'Date du versement :',
      'réduction d’impôt prévue à l’article 200 du CGI',
      'Taux de réduction : 66 %',
      'Forme du don : déclaration de don manuel',
      'Nature du don : numéraire',
      'Mode de versement : Carte bancaire',
      'Date d’émission :',
      'Marie Curie, Présidente',
    ]) {
      expect(text).toContain(mention);
    }
    expect(Buffer.compare(await renderReceiptPdf(receipt), pdf)).toBe(0);
    const byId = await receiptPdfById(t.db, receipt.id);
    expect(Buffer.compare(byId!.pdf, pdf)).toBe(0);
    expect(byId!.filename).toBe(`recu-fiscal-${receipt.number}.pdf`);
  });

  it('gives each monthly instalment its own receipt under the per-gift model, made out as the first gift', async () => {
    const { donation } = await startCardDonation(deps, { amountCents: 1500, monthly: true, lang: 'fr', taxDetails: JSON.stringify(DONOR) });
    const ev = stripe.complete(donation.provider_ref);
    await handleStripeWebhook(deps, ev.payload, ev.header);
    const body = JSON.stringify({ id: `evt_each_${dialect}`, object: 'event', type: 'invoice.paid', data: { object: { id: `in_each_${dialect}`, object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 1500, currency: 'eur', customer_email: 'donor@example.org', parent: { subscription_details: { subscription: `sub_${donation.provider_ref}` } } } } });
    for (let i = 0; i < 3; i++) await handleStripeWebhook(deps, body, stripe.sign(body));
    const renewal = await t.db.selectFrom('donations').selectAll().where('provider_ref', '=', `in_each_${dialect}`).executeTakeFirstOrThrow();
    const [first] = await receiptsOfDonation(t.db, donation.id);
    const mine = await receiptsOfDonation(t.db, renewal.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ seq: first.seq + 1, amount_cents: 1500, donor: JSON.stringify(DONOR) });
  });

  it('prints the signature image from the media storage, still the same bytes every time', async () => {
    const storage = diskStorage(path.join(t.dataDir, 'media'));
    await storage.put('signature-test.png', await makePng(300, 100), 'image/png');
    await setReceiptSettings(t.db, { signatureImage: '/media/signature-test.png' });
    const donation = await cardGift(2500);
    await setReceiptSettings(t.db);
    const [receipt] = await receiptsOfDonation(t.db, donation.id);
    const withImage = await renderReceiptPdf(receipt, storage);
    const without = await renderReceiptPdf(receipt);
    expect(withImage.toString('latin1')).toMatch(/\/Subtype \/Image/);
    expect(without.toString('latin1')).not.toMatch(/\/Subtype \/Image/);
    expect(Buffer.compare(await renderReceiptPdf(receipt, storage), withImage)).toBe(0);
  });

  it('prints the site’s logo as it was when the receipt was issued, beside the signature, and keeps it when the logo changes', async () => {
    const storage = diskStorage(path.join(t.dataDir, 'media'));
    await storage.put('logo-test.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><circle cx="30" cy="30" r="28" fill="#c2410c"/></svg>'), 'image/svg+xml');
    await storage.put('signature-both.png', await makePng(300, 100), 'image/png');
    const site = await getEditableSiteSettings(t.db);
    expect(await saveSiteSettings(t.db, { id: null, name: 'test' }, { ...site.settings, siteLogoUrl: '', logoUrl: '/media/logo-test.svg' }, site.version)).toBe('ok');
    await setReceiptSettings(t.db, { signatureImage: '/media/signature-both.png' });
    const donation = await cardGift(2500);
    await setReceiptSettings(t.db);
    const [receipt] = await receiptsOfDonation(t.db, donation.id);
    expect(JSON.parse(receipt.organisation)).toMatchObject({ logoUrl: '/media/logo-test.svg', signatureImage: '/media/signature-both.png' });
    const pdf = await renderReceiptPdf(receipt, storage);
    expect((await getDocumentProxy(new Uint8Array(pdf))).numPages).toBe(1);
    const images = await imagesDrawn(pdf);
    expect(images).toHaveLength(2);
    // The logo (120 × 60, fitted in 72 × 72) at the top left, then the signature lower down on the right.
    expect(images[0].x).toBeCloseTo(36, 1);
    expect(images[0].w).toBeCloseTo(72, 1);
    expect(images[0].h).toBeCloseTo(36, 1);
    expect(images[1].x).toBeGreaterThan(300);
    expect(images[1].y).toBeGreaterThan(images[0].y + 300);
    // The site's logo changes (here: none): the receipt still prints the one it was issued with.
    const now = await getEditableSiteSettings(t.db);
    expect(await saveSiteSettings(t.db, { id: null, name: 'test' }, { ...now.settings, logoUrl: '' }, now.version)).toBe('ok');
    expect(Buffer.compare(await renderReceiptPdf((await receiptsOfDonation(t.db, donation.id))[0], storage), pdf)).toBe(0);
    const later = await cardGift(2500);
    const [unlogoed] = await receiptsOfDonation(t.db, later.id);
    expect(JSON.parse(unlogoed.organisation).logoUrl).toBe('');
    expect(await imagesDrawn(await renderReceiptPdf(unlogoed, storage))).toEqual([]);
  });

  it('prints article 238 bis and the company for a company donor, on the CERFA n° 16216 model (ADR 035)', async () => {
    const company = { ...DONOR, kind: 'company', company: 'ACME SAS', legalForm: 'SAS', siren: '987654321' };
    const donation = await cardGift(50_000, { tax: JSON.stringify(company) });
    const [receipt] = await receiptsOfDonation(t.db, donation.id);
    expect(receipt.regime).toBe('238bis');
    const text = await pdfText(await renderReceiptPdf(receipt));
    expect(text).toContain('Dénomination : ACME SAS Forme juridique : SAS N° SIREN : 987654321');
    expect(text).toContain('prévue à l’article 238 bis du code général des impôts');
    expect(text).toContain('cinq cents euros');
  });

  it('cancels the receipt of a refunded gift, keeps it in the register as cancelled and tells the Admins', async () => {
    const donation = await cardGift(4200);
    const refund = JSON.stringify({ id: 'evt_r', object: 'event', type: 'charge.refunded', data: { object: { id: 'ch_1', object: 'charge', refunded: true, payment_intent: `pi_${donation.provider_ref}` } } });
    for (let i = 0; i < 3; i++) await handleStripeWebhook(deps, refund, stripe.sign(refund));
    const [receipt] = await receiptsOfDonation(t.db, donation.id);
    expect(receipt).toMatchObject({ status: 'cancelled', cancel_reason: 'Don remboursé' });
    expect((await listReceipts(t.db, YEAR)).find((r) => r.id === receipt.id)?.status).toBe('cancelled');
    const notices = await t.db.selectFrom('mail_outbox').selectAll().where('to', '=', 'admin@example.org').execute();
    expect(notices).toHaveLength(1);
    expect(notices[0].subject).toBe(`Reçu fiscal annulé après remboursement : ${receipt.number}`);
    expect(await pdfText(await renderReceiptPdf(receipt))).toContain('REÇU ANNULÉ');
  });

  it('cancels the receipt of a refunded monthly instalment, the first one or a renewal, and tells the Admins', async () => {
    const [first, kept, renewal, older] = await monthlyGift(1800, 3);
    const receiptOf = async (id: string) => (await receiptsOfDonation(t.db, id))[0];
    const state = async (id: string) => [(await findById(t.db, id))!.status, (await receiptOf(id)).status];
    for (const i of [first, kept, renewal, older]) expect(await state(i.id)).toEqual(['succeeded', 'issued']);
    const notices = await t.db.selectFrom('mail_outbox').select('subject').where('to', '=', 'admin@example.org').execute();

    // The first instalment (the checkout's invoice), replayed: today's charge names its PaymentIntent only.
    const refund = stripe.refund({ invoice: first.invoice });
    expect(refund.charge.invoice).toBeUndefined();
    for (let i = 0; i < 3; i++) await webhook(refund);
    expect(await state(first.id)).toEqual(['refunded', 'cancelled']);
    expect(await state(kept.id)).toEqual(['succeeded', 'issued']);
    // A renewal; another as an endpoint on an API version before 2025-03-31.basil sends it (the charge names its invoice).
    await webhook(stripe.refund({ invoice: renewal.invoice }));
    await webhook(stripe.refund({ invoice: older.invoice }, { legacyInvoiceField: true }));
    expect(await state(renewal.id)).toEqual(['refunded', 'cancelled']);
    expect(await state(older.id)).toEqual(['refunded', 'cancelled']);
    expect(await state(kept.id)).toEqual(['succeeded', 'issued']);

    const cancelled = await Promise.all([first, renewal, older].map((i) => receiptOf(i.id)));
    for (const r of cancelled) expect(r.cancel_reason).toBe('Don remboursé');
    const sent = (await t.db.selectFrom('mail_outbox').select(['subject', 'text']).where('to', '=', 'admin@example.org').execute()).slice(notices.length);
    expect(sent.map((m) => m.subject).sort()).toEqual(cancelled.map((r) => `Reçu fiscal annulé après remboursement : ${r.number}`).sort());
    for (const m of sent) expect(m.text).toContain('Registre des reçus : https://dons.example.org/admin/receipts\n');
  });

  it('corrects a receipt: the old one is cancelled, a new one takes the next number', async () => {
    const donation = await cardGift(3000);
    const [old] = await receiptsOfDonation(t.db, donation.id);
    const next = (await counter()) + 1;
    const fixed = { ...DONOR, name: 'Awa Diallo-Sow' };
    const result = await correctReceipt(t.db, { id: null, name: 'Admin' }, old.id, fixed, 'Nom mal orthographié');
    expect(result.ok).toBe(true);
    const fresh = (result as { receipt: Receipt }).receipt;
    expect(fresh).toMatchObject({ seq: next, status: 'issued', replaces_id: old.id, amount_cents: 3000 });
    expect(await findById(t.db, old.donation_id!)).toMatchObject({ tax_details: JSON.stringify(fixed) });
    const all = await receiptsOfDonation(t.db, donation.id);
    expect(all.map((r) => r.status).sort()).toEqual(['cancelled', 'issued']);
    expect((await correctReceipt(t.db, { id: null, name: 'Admin' }, old.id, fixed, 'again')).ok).toBe(false);
    // Numbers of the year: 1..n, each once.
    const seqs = (await listReceipts(t.db, YEAR)).map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  });

  it('sums a donor’s monthly gifts exactly in one annual receipt, never counting a gift twice', async () => {
    await setReceiptSettings(t.db, { model: 'annual_monthly' });
    const email = `monthly-${dialect}@example.org`;
    const { donation } = await startCardDonation(deps, { amountCents: 1000, monthly: true, lang: 'es', taxDetails: JSON.stringify(DONOR) });
    const ev = stripe.complete(donation.provider_ref, { customer_details: { email, name: 'Awa Diallo' } });
    await handleStripeWebhook(deps, ev.payload, ev.header);
    const invoice = (id: string, cents: number) =>
      JSON.stringify({ id: `evt_${id}`, object: 'event', type: 'invoice.paid', data: { object: { id, object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: cents, currency: 'eur', customer_email: email, parent: { subscription_details: { subscription: `sub_${donation.provider_ref}` } } } } });
    for (const [id, cents] of [['in_a', 1000], ['in_b', 1000], ['in_c', 1250]] as const) {
      const body = invoice(`${id}_${dialect}`, cents);
      await handleStripeWebhook(deps, body, stripe.sign(body));
      await handleStripeWebhook(deps, body, stripe.sign(body));
    }
    // A one-off gift of the same donor keeps its own receipt and is not summed.
    await cardGift(700, { email });
    const monthly = await t.db.selectFrom('donations').select('id').where('donor_email', '=', email).where('frequency', '=', 'monthly').execute();
    expect(monthly).toHaveLength(4);
    for (const m of monthly) expect(await receiptsOfDonation(t.db, m.id)).toEqual([]);

    const january = new Date(Date.UTC(YEAR + 1, 0, 5, 9));
    const issued = await issueAnnualStatements(t.db, YEAR, january);
    const mine = issued.filter((r) => r.donor_email === email);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ kind: 'annual', amount_cents: 4250, year: YEAR + 1, seq: 1, language: 'es' });
    expect(JSON.parse(mine[0].donation_ids).sort()).toEqual(monthly.map((m) => m.id).sort());
    expect(await pdfText(await renderReceiptPdf(mine[0]))).toContain('quarante-deux euros et cinquante centimes');
    // Again (an Admin's click, the January job on another instance): nothing new.
    expect(await issueAnnualStatements(t.db, YEAR, january)).toEqual([]);
    // The January job claims the year once and mails what it issued.
    const jobDeps = { db: t.db, env: deps.env, publicUrl: deps.publicUrl };
    expect(await januaryRun(jobDeps, new Date(Date.UTC(YEAR + 1, 5, 1)))).toBe(false);
    expect(await januaryRun(jobDeps, january)).toBe(true);
    expect(await januaryRun(jobDeps, january)).toBe(false);
    // The donor got the annual receipt by email once, in Spanish.
    const annualMails = await t.db.selectFrom('mail_outbox').selectAll().where('to', '=', email).where('subject', 'like', '%anual%').execute();
    expect(annualMails).toHaveLength(1);
    expect(annualMails[0].subject).toBe(`Su recibo fiscal anual ${YEAR} — Fundación THV`);
    expect(annualMails[0].text).toContain(`n.º ${mine[0].number} por sus donaciones de ${YEAR}, por un importe total de 42,50 €`);
    await setReceiptSettings(t.db, { model: 'each' });
  });

  it('cancels the annual receipt covering a refunded gift, reissues it for the other gifts, mails it and tells the Admins', async () => {
    await setReceiptSettings(t.db, { model: 'annual_monthly' });
    const email = `annual-refund-${dialect}@example.org`;
    try {
      const gifts = await monthlyGift(1000, 2, email);
      const january = new Date(Date.UTC(YEAR + 1, 0, 5, 9));
      const [annual] = (await issueAnnualStatements(t.db, YEAR, january)).filter((r) => r.donor_email === email);
      expect(annual).toMatchObject({ amount_cents: 3000, donation_ids: JSON.stringify(gifts.map((g) => g.id)) });
      const notices = await refundNotices();
      /** The donor's annual receipts, each followed by the one that replaced it. */
      const annualOf = async () => {
        const rows = await t.db.selectFrom('receipts').selectAll().where('kind', '=', 'annual').where('donor_email', '=', email).execute();
        const chain = [rows.find((r) => r.id === annual.id)!];
        for (let next = rows.find((r) => r.replaces_id === annual.id); next; next = rows.find((r) => r.replaces_id === chain.at(-1)!.id)) chain.push(next);
        expect(chain).toHaveLength(rows.length);
        return chain;
      };

      // A renewal refunded: the annual receipt is cancelled (it stays in its register) and reissued without it.
      await webhook(stripe.refund({ invoice: gifts[1].invoice }));
      const [old, fixed] = await annualOf();
      expect(old).toMatchObject({ id: annual.id, status: 'cancelled', cancel_reason: 'Don remboursé', year: YEAR + 1 });
      expect(fixed).toMatchObject({ kind: 'annual', status: 'issued', replaces_id: annual.id, amount_cents: 2000, donor: annual.donor, donor_email: email, language: 'fr', year: YEAR });
      expect(JSON.parse(fixed.donation_ids)).toEqual([gifts[0].id, gifts[2].id]);
      expect(fixed.sent_at).not.toBeNull();
      const [toDonor] = await t.db.selectFrom('mail_outbox').select(['subject', 'text']).where('to', '=', email).where('text', 'like', `%${fixed.number}%`).execute();
      expect(toDonor.text).toContain(`reçu fiscal récapitulatif n° ${fixed.number} pour vos dons de ${YEAR}, d’un montant total de 20,00 €`);
      const [notice] = await t.db.selectFrom('mail_outbox').select(['subject', 'text']).where('to', '=', 'admin@example.org').where('subject', '=', `Reçu fiscal annulé après remboursement : ${annual.number}`).execute();
      expect(notice.text).toContain(`Le reçu ${annual.number} était un reçu annuel récapitulatif : le reçu rectificatif ${fixed.number} (20,00 €) le remplace pour les autres dons qu’il comprenait et a été envoyé au donateur.`);
      // Nothing is counted twice: the statement finds every gift covered or refunded.
      expect((await issueAnnualStatements(t.db, YEAR, january)).filter((r) => r.donor_email === email)).toEqual([]);

      // The first gift refunded too: the corrected receipt is corrected in turn; the last one leaves none.
      await webhook(stripe.refund({ invoice: gifts[0].invoice }));
      await webhook(stripe.refund({ invoice: gifts[2].invoice }));
      const all = await annualOf();
      expect(all.map((r) => [r.status, r.amount_cents, r.replaces_id])).toEqual([
        ['cancelled', 3000, null],
        ['cancelled', 2000, annual.id],
        ['cancelled', 1000, fixed.id],
      ]);
      expect(await refundNotices()).toBe(notices + 3);
      const [last] = await t.db.selectFrom('mail_outbox').select('text').where('subject', '=', `Reçu fiscal annulé après remboursement : ${all[2].number}`).execute();
      expect(last.text).toContain(`Le reçu ${all[2].number} était un reçu annuel récapitulatif : il ne comprenait pas d’autre don, aucun reçu rectificatif n’est émis.`);
    } finally {
      await setReceiptSettings(t.db, { model: 'each' });
    }
  });

  it('reproduces every receipt byte for byte from a backup restored elsewhere', async () => {
    const archive = path.join(t.dataDir, 'receipts-backup.tar.gz');
    await createBackup(t, diskStorage(path.join(t.dataDir, 'media')), archive);
    const copy = await createTestDb(dialect, { migrate: false });
    try {
      await restoreBackup(copy, diskStorage(path.join(copy.dataDir, 'media')), archive);
      const original = await listReceipts(t.db, YEAR);
      const restored = await listReceipts(copy.db, YEAR);
      expect(restored.map((r) => r.number)).toEqual(original.map((r) => r.number));
      for (const r of original.slice(0, 3)) {
        const again = restored.find((x) => x.id === r.id)!;
        expect(Buffer.compare(await renderReceiptPdf(again), await renderReceiptPdf(r))).toBe(0);
      }
      expect((await copy.db.selectFrom('receipt_counters').select('last').where('year', '=', YEAR).executeTakeFirstOrThrow()).last).toBe(await counter());
    } finally {
      await copy.destroy();
    }
  });

  it('issues and cancels through the ledger move every provider shares (PayPal here)', async () => {
    const d = await createAttempt(t.db, { provider: 'paypal', providerRef: `ORDER-${dialect}`, amountMinor: 2500, currency: 'EUR', eurCents: 2500, frequency: 'once', language: 'fr', taxDetails: JSON.stringify(DONOR) });
    // Confirmation goes through the same ledger move as every provider.
    const t1 = await transition(t.db, { id: d.id }, 'succeeded');
    expect(t1.receipt?.status).toBe('issued');
    const t2 = await transition(t.db, { id: d.id }, 'refunded');
    expect(t2.cancelledReceipts?.map((r) => r.id)).toEqual([t1.receipt!.id]);
  });
});

describeEachDialect('the total a year declares on %s', (dialect) => {
  let t: TestDb;
  let stripe: FakeStripe;
  beforeAll(async () => {
    ({ t, stripe } = await receiptsWorld(dialect));
  });
  afterAll(async () => {
    await stripe?.close();
    await t?.destroy();
  });

  it('sums the valid receipts only: a refunded gift and a corrected receipt’s old number count for nothing', async () => {
    const deps = await stripeDeps(t.db, stripe.url);
    const ids: string[] = [];
    for (const cents of [1000, 2550, 4200, 12_345]) {
      const { donation } = await startCardDonation(deps, { amountCents: cents, monthly: false, lang: 'fr', taxDetails: JSON.stringify(DONOR) });
      const ev = stripe.complete(donation.provider_ref);
      await handleStripeWebhook(deps, ev.payload, ev.header);
      ids.push(donation.id);
    }
    const refund = stripe.refund({ paymentIntent: `pi_${(await findById(t.db, ids[2]))!.provider_ref}` });
    await handleStripeWebhook(deps, refund.payload, refund.header);
    const [corrected] = await receiptsOfDonation(t.db, ids[1]);
    expect((await correctReceipt(t.db, { id: null, name: 'Admin' }, corrected.id, { ...DONOR, city: 'Lyon' }, 'Commune')).ok).toBe(true);
    // Valid: 10,00 + 25,50 (its correction) + 123,45; cancelled: the refunded 42,00 and the corrected 25,50.
    expect(totalsOf(await listReceipts(t.db, YEAR))).toEqual({ issuedCount: 3, issuedCents: 15_895, cancelledCount: 2 });
  });
});

describeEachDialect('receipt numbers under concurrency on %s', (dialect) => {
  let t: TestDb;
  let second: DbHandle | undefined;
  let stripe: FakeStripe;

  beforeAll(async () => {
    ({ t, stripe } = await receiptsWorld(dialect));
    // PostgreSQL: a second instance is a second pool on the same database. SQLite serves one
    // instance (ADR 008); there the 200 deliveries race on one handle.
    if (dialect === 'postgres') second = openDatabase({ databaseUrl: (t.pool as unknown as { options: { connectionString: string } }).options.connectionString, dataDir: t.dataDir });
  });
  afterAll(async () => {
    await second?.close();
    await stripe?.close();
    await t?.destroy();
  });

  it(`numbers 200 gifts confirmed at once ${dialect === 'postgres' ? 'on two instances' : 'on one instance'} 1..200, without gap or duplicate, replays included`, async () => {
    const a = await stripeDeps(t.db, stripe.url);
    const b = second ? await stripeDeps(second.db, stripe.url) : a;
    const events: { payload: string; header: string }[] = [];
    for (let i = 0; i < 200; i++) {
      const d = await createAttempt(t.db, { provider: 'stripe', providerRef: `cs_conc_${i}`, amountMinor: 1000 + i, currency: 'EUR', eurCents: 1000 + i, frequency: 'once', language: 'fr', taxDetails: JSON.stringify(DONOR) });
      const session = { id: d.provider_ref, object: 'checkout.session', mode: 'payment', status: 'complete', payment_status: 'paid', amount_total: 1000 + i, currency: 'eur', payment_intent: `pi_conc_${i}`, customer_details: { email: `c${i}@example.org`, name: 'Awa' } };
      const payload = JSON.stringify({ id: `evt_conc_${i}`, object: 'event', type: 'checkout.session.completed', data: { object: session } });
      events.push({ payload, header: stripe.sign(payload) });
    }
    // Each event goes to both instances at once (a provider's retry racing the first delivery).
    const results = await Promise.all(events.flatMap((e, i) => [handleStripeWebhook(i % 2 ? a : b, e.payload, e.header), handleStripeWebhook(i % 2 ? b : a, e.payload, e.header)]));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const rows = await listReceipts(t.db, YEAR);
    expect(rows).toHaveLength(200);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.donation_id)).size).toBe(200);
    expect(new Set(rows.map((r) => r.number)).size).toBe(200);
    expect((await t.db.selectFrom('receipt_counters').select('last').where('year', '=', YEAR).executeTakeFirstOrThrow()).last).toBe(200);
  }, 120_000);

  it(`takes refunds and the annual statement in turn ${dialect === 'postgres' ? 'on two instances' : 'on one instance'}: a refunded gift is never left in a valid receipt`, async () => {
    await setReceiptSettings(t.db, { model: 'annual_monthly' });
    const gifts: { id: string; refund: boolean }[] = [];
    for (let i = 0; i < 120; i++) {
      const d = await createAttempt(t.db, { provider: 'stripe', providerRef: `in_race_${i}`, amountMinor: 1000 + i, currency: 'EUR', eurCents: 1000 + i, frequency: 'monthly', language: 'fr', donorEmail: `race${Math.floor(i / 2)}@example.org`, taxDetails: JSON.stringify(DONOR) });
      await transition(t.db, { id: d.id }, 'succeeded');
      gifts.push({ id: d.id, refund: i % 2 === 0 });
    }
    const other = second?.db ?? t.db;
    await other.selectFrom('receipts').select('id').limit(1).execute();
    // The statement runs while half the gifts are refunded, one after another, on the other instance.
    const refunds = (async () => {
      for (const g of gifts.filter((x) => x.refund)) await transition(other, { id: g.id }, 'refunded');
    })();
    await Promise.all([issueAnnualStatements(t.db, YEAR, new Date()), refunds]);
    const valid = (await listReceipts(t.db, YEAR)).filter((r) => r.status === 'issued' && r.kind === 'annual');
    const covered = valid.flatMap((r) => JSON.parse(r.donation_ids) as string[]);
    expect(covered.sort()).toEqual(gifts.filter((g) => !g.refund).map((g) => g.id).sort());
    expect((await listReceipts(t.db, YEAR)).map((r) => r.seq)).toEqual(Array.from({ length: (await listReceipts(t.db, YEAR)).length }, (_, i) => i + 1));
  }, 120_000);
});

/**
 * Crypto gifts under tax receipts (#19): CoinGate passes no address on, so the donate form asks for
 * one, and requires it of a donor who wants a receipt. The donate route and CoinGate's callback
 * route are called as React Router calls them, on a running app; the page is rendered in the
 * language the app reads from the request, and the thank-you mail goes to a real SMTP server.
 */
describeEachDialect('a crypto gift’s tax receipt on %s', (dialect) => {
  const ORIGIN = 'https://fondation.example.org';
  const CG_TOKEN = 'cg-receipts-token';
  const TAX_FORM = { tax_kind: 'individual', tax_name: DONOR.name, tax_address: DONOR.address, tax_postalCode: DONOR.postalCode, tax_city: DONOR.city, tax_country: DONOR.country };
  let app: { stop: () => Promise<void> } | undefined;
  let coingate: FakeCoinGate;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const db = () => runtime().db;

  beforeAll(async () => {
    coingate = await startFakeCoinGate({ port: 0, authToken: CG_TOKEN });
    smtp = await startSmtp();
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN, COINGATE_API_BASE: coingate.url, SMTP_URL: smtp.url, MAIL_FROM: 'Fondation THV <dons@example.org>' });
    await enablePayPalAndFlutterwave(db(), APP_SECRET, CG_TOKEN);
    await setReceiptSettings(db());
  });
  afterAll(async () => {
    await app?.stop();
    await coingate?.close();
    await smtp?.close();
  });

  /** The crypto tab of /faire-un-don at `lang`'s address, after posting `form` when given. */
  async function donatePage(lang: Lang, form?: Record<string, string>) {
    const headers = {};
    const get = new Request(`${ORIGIN}${sitePath(lang, '/faire-un-don?m=crypto')}`, { headers });
    const loaded = answer(await donateLoader({ request: get, params: {}, context: routeContext() } as never));
    let posted: { body: Record<string, unknown>; status: number; location: string | null } | null = null;
    if (form) {
      const request = new Request(get.url, { method: 'POST', headers: { ...headers, Origin: ORIGIN }, body: new URLSearchParams({ intent: 'crypto', ...form }) });
      const result = await donateAction({ request, params: {}, context: routeContext() } as never);
      posted = result instanceof Response ? { body: {}, status: result.status, location: result.headers.get('Location') } : { ...answer(result), location: null };
    }
    const shown = detectLang(get).lang;
    const page = createElement(DonatePage as never, { loaderData: loaded.body, actionData: posted?.location ? undefined : posted?.body } as never);
    const html = renderToStaticMarkup(createElement(I18nContext.Provider, { value: makeI18n(shown, messagesFor(shown)) }, page));
    return { html, posted };
  }
  const written = async () => ({
    gifts: (await db().selectFrom('donations').select('id').execute()).length,
    receipts: (await db().selectFrom('receipts').select('id').execute()).length,
    mails: (await db().selectFrom('mail_outbox').select('id').execute()).length,
    orders: coingate.orders.size,
  });

  it('refuses, in the donor’s language, a gift that asks for a receipt without an email, and writes nothing', async () => {
    const before = await written();
    // The label says when the address is required.
    expect((await donatePage('es')).html).toContain('<label for="crypto-email" class="block font-medium">Correo electrónico (obligatorio para un recibo fiscal)</label>');
    expect((await donatePage('fr')).html).toContain('Email (obligatoire pour un reçu fiscal)');
    const { html, posted } = await donatePage('es', { amount: '25', email: '', ...TAX_FORM });
    expect(posted).toMatchObject({ status: 400, body: { error: 'donate.cryptoEmailRequired' } });
    expect(html).toContain('role="alert" class="rounded-md border border-red-200 bg-red-50 p-3 font-medium text-red-900">Indique su correo electrónico: así recibirá su recibo fiscal.</p>');
    expect(html).toMatch(/<input id="crypto-email"[^>]* aria-invalid="true" aria-describedby="crypto-email-hint donate-error"/);
    // What was typed for the receipt stays.
    expect(html).toContain(`value="${DONOR.address}"`);
    expect(await written()).toEqual(before);
    // Without a receipt the address stays optional: the gift goes to CoinGate.
    const declined = await donatePage('es', { amount: '25', email: '', tax_optOut: 'on' });
    expect(declined.posted).toMatchObject({ status: 303, location: expect.stringMatching(`^${coingate.url}/invoice/`) });
    expect(await written()).toMatchObject({ gifts: before.gifts + 1, orders: before.orders + 1, receipts: before.receipts });
  });

  it('sends the receipt of a confirmed crypto gift with the donor’s details in its thank-you mail', async () => {
    const email = 'crypto.recu@example.org';
    const { posted } = await donatePage('en', { amount: '40', email, ...TAX_FORM });
    expect(posted).toMatchObject({ status: 303 });
    const orderId = /\/invoice\/(\d+)$/.exec(posted!.location!)![1];
    const order = coingate.orders.get(orderId);
    expect(order.price_amount).toBe('40.00');
    // CoinGate's callback, trusted after the order is fetched again: paid.
    order.status = 'paid';
    const callback = new Request(`${ORIGIN}/webhooks/coingate`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ id: orderId, token: order.token }) });
    expect((await providerWebhook({ request: callback, params: { provider: 'coingate' }, context: routeContext() } as never)).status).toBe(200);

    const [receipt] = await receiptsOfDonation(db(), order.order_id);
    expect(receipt).toMatchObject({ status: 'issued', amount_cents: 4000, method: 'Cryptomonnaie (CoinGate)', donor_email: email, number: expect.stringMatching(`^RF-${YEAR}-\\d{6}$`) });
    expect(JSON.parse(receipt.donor)).toEqual(DONOR);
    const mail = await smtp.mailTo(email);
    expect(mail.text).toContain('Receipt for your donation to the THV Foundation');
    expect(mail.text).toContain(`Your tax receipt no. ${receipt.number} is attached to this message (PDF document, in French).`);
    expect(mail.raw).toMatch(/Content-Type: application\/pdf/i);
    expect(mail.raw).toMatch(new RegExp(`Content-Disposition: attachment;\\s*filename="?recu-fiscal-${receipt.number}\\.pdf`, 'i'));
    expect(mail.text).toContain('%PDF-');
  });
});
