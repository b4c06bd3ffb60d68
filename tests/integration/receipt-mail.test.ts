import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createAttempt, findById, transition } from '~/domain/donations/ledger.server';
import { announceRefund, giftReceiptForMail, mailAnnualReceipts, notifyAdminsOfCancellation, pdfAttachment } from '~/domain/receipts/mail.server';
import { parisYear } from '~/lib/paris';
import { receiptFileName, renderReceiptPdf } from '~/domain/receipts/pdf.server';
import { cancelReceipt, receiptsOfDonation, type Receipt } from '~/domain/receipts/register.server';
import { sendReceipt } from '~/domain/donations/thanks.server';
import { parseEnv } from '~/lib/env.server';
import { closeMailTransports } from '~/lib/mail.server';
import { log } from '~/lib/log.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { DONOR, setReceiptSettings } from '../support/receipts';
import { startSmtp } from '../support/smtp';

/** The mails the receipts send: the gift's receipt line and PDF, the annual receipt, the Admins' notice of a cancellation. */
const ADMIN = { id: null, name: 'Admin' };

describeEachDialect('the receipts’ mails on %s', (dialect) => {
  let t: TestDb;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    smtp = await startSmtp();
    await setReceiptSettings(t.db);
    const now = '2026-01-01T00:00:00.000Z';
    const user = (id: string, email: string, role: string, password: string | null) => ({ id, name: id, email, role, password_hash: password, version: 1, created_at: now, updated_at: now });
    await t.db
      .insertInto('users')
      .values([user('a1', 'admin1@example.org', 'Admin', 'x'), user('a2', 'admin2@example.org', 'Admin', 'x'), user('a3', 'invited@example.org', 'Admin', null), user('e1', 'editor@example.org', 'Éditeur', 'x')])
      .execute();
  });
  afterAll(async () => {
    closeMailTransports();
    await smtp?.close();
    await t?.destroy();
  });

  async function giftReceipt(language = 'fr', email = 'awa@example.org'): Promise<Receipt> {
    const d = await createAttempt(t.db, { provider: 'stripe', amountMinor: 4250, currency: 'EUR', eurCents: 4250, frequency: 'once', language, donorEmail: email, taxDetails: JSON.stringify(DONOR) });
    await transition(t.db, { id: d.id }, 'succeeded');
    return (await receiptsOfDonation(t.db, d.id))[0];
  }
  const outbox = (to: string) => t.db.selectFrom('mail_outbox').select(['subject', 'text', 'html', 'error']).where('to', '=', to).execute();

  it('attaches the receipt’s PDF under its file name', async () => {
    const r = await giftReceipt();
    const attachment = await pdfAttachment(r);
    expect(attachment.filename).toBe(receiptFileName(r));
    expect(attachment.contentType).toBe('application/pdf');
    expect(attachment.content.equals(await renderReceiptPdf(r))).toBe(true);
  });

  it('adds the receipt to the gift’s thank-you mail once, in the donor’s language, and never a cancelled one', async () => {
    const r = await giftReceipt('en', 'once@example.org');
    const first = await giftReceiptForMail(t.db, r.donation_id!, 'en');
    expect(first?.line).toBe(`Your tax receipt no. ${r.number} is attached to this message (PDF document, in French).`);
    expect(first?.attachment.filename).toBe(receiptFileName(r));
    expect((await receiptsOfDonation(t.db, r.donation_id!))[0].sent_at).not.toBeNull();
    // The once is the thank-you mail's one claim (ADR 019): asked twice, the gift's mail goes once, with its receipt.
    const gift = (await findById(t.db, r.donation_id!))!;
    const deps = { db: t.db, env: parseEnv({}), publicUrl: 'https://dons.example.org' };
    await sendReceipt(deps, gift);
    await sendReceipt(deps, gift);
    const mails = await outbox('once@example.org');
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(first!.line);

    const cancelled = await giftReceipt();
    expect((await cancelReceipt(t.db, ADMIN, cancelled.id, 'erreur')).ok).toBe(true);
    expect(await giftReceiptForMail(t.db, cancelled.donation_id!, 'fr')).toBeNull();
    expect((await findById(t.db, cancelled.donation_id!))?.status).toBe('succeeded');
  });

  it('mails an annual receipt with its PDF, in the donor’s language (French when unknown), once; a refused delivery is not counted', async () => {
    const annual = async (language: string, email: string) => ({ ...(await giftReceipt(language, email)), kind: 'annual' }) as Receipt;
    const fr = await annual('de', 'annuel@example.org');
    const none = { ...(await annual('fr', 'sans-adresse@example.org')), donor_email: null };
    expect(await mailAnnualReceipts(t.db, { smtpUrl: smtp.url, from: 'Fondation THV <dons@example.org>' }, [fr, none, fr])).toBe(1);
    const [mail] = await outbox('annuel@example.org');
    const body = `Veuillez trouver ci-joint votre reçu fiscal récapitulatif n° ${fr.number} pour vos dons de ${parisYear(fr.paid_at)}, d’un montant total de 42,50 €.`;
    expect(mail).toEqual({
      subject: `Votre reçu fiscal récapitulatif ${parisYear(fr.paid_at)} — Fondation THV`,
      text: `${body}\n\nL’équipe de la Fondation THV`,
      html: `<p>${body}</p><p>L’équipe de la Fondation THV</p>`,
      error: null,
    });
    const delivered = smtp.mails.filter((m) => m.to.includes('annuel@example.org'));
    expect(delivered).toHaveLength(1);
    expect(delivered[0].raw).toMatch(new RegExp(`Content-Type: application/pdf; name=${receiptFileName(fr).replace('.', '\\.')}`));

    const refused = await annual('fr', 'refuse@example.org');
    vi.spyOn(log, 'error').mockImplementation(() => undefined);
    try {
      expect(await mailAnnualReceipts(t.db, { smtpUrl: 'smtp://127.0.0.1:1', from: 'x@example.org' }, [refused])).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
    expect((await outbox('refuse@example.org'))[0].error).not.toBeNull();
  });

  it('tells every Admin who can sign in, and no one else, which receipts a refund cancelled; nothing when none was', async () => {
    const [a, b] = [await giftReceipt(), await giftReceipt()];
    const before = (await t.db.selectFrom('mail_outbox').select('id').execute()).length;
    await notifyAdminsOfCancellation(t.db, { from: 'x@example.org' }, { cancelled: [], reissued: [] }, 'https://dons.example.org/admin/receipts');
    expect(await t.db.selectFrom('mail_outbox').select('id').execute()).toHaveLength(before);

    await notifyAdminsOfCancellation(t.db, { from: 'x@example.org' }, { cancelled: [a, b], reissued: [] }, 'https://dons.example.org/admin/receipts?a=1&b=2');
    const sent = await t.db.selectFrom('mail_outbox').select(['to', 'subject', 'text', 'html']).where('subject', 'like', 'Reçu fiscal annulé%').orderBy('to').execute();
    expect(sent.map((m) => m.to)).toEqual(['admin1@example.org', 'admin2@example.org']);
    const list = `${a.number} (42,50 €), ${b.number} (42,50 €)`;
    const first = `Un don a été remboursé : le reçu fiscal ${list} est annulé automatiquement. Il reste dans le registre, marqué « annulé ».`;
    expect(sent[0]).toMatchObject({
      subject: `Reçu fiscal annulé après remboursement : ${a.number}, ${b.number}`,
      text: `${first}\n\nRegistre des reçus : https://dons.example.org/admin/receipts?a=1&b=2\n`,
      html: `<p>${first}</p><p><a href="https://dons.example.org/admin/receipts?a=1&#38;b=2">Registre des reçus</a></p>`,
    });
  });

  it('says, for an annual receipt a refund cancelled, which corrected receipt replaces it, or why none does', async () => {
    const annual = async (gifts: number, email = 'annuel-rembourse@example.org') => ({ ...(await giftReceipt('fr', email)), kind: 'annual', donation_ids: JSON.stringify(Array.from({ length: gifts }, (_, i) => `d-${i}`)) }) as Receipt;
    const [gift, replaced, alone, uncovered] = [await giftReceipt(), await annual(3), await annual(1), await annual(2)];
    const fixed = { ...(await annual(2)), replaces_id: replaced.id, amount_cents: 2833 };
    await notifyAdminsOfCancellation(t.db, { from: 'x@example.org' }, { cancelled: [gift, replaced, alone, uncovered], reissued: [fixed] }, 'https://dons.example.org/admin/receipts');
    const [mail] = await t.db.selectFrom('mail_outbox').select(['subject', 'text', 'html']).where('to', '=', 'admin1@example.org').where('subject', 'like', `%${gift.number}%`).execute();
    const paragraphs = [
      `Un don a été remboursé : le reçu fiscal ${[gift, replaced, alone, uncovered].map((r) => `${r.number} (42,50 €)`).join(', ')} est annulé automatiquement. Il reste dans le registre, marqué « annulé ».`,
      `Le reçu ${replaced.number} était un reçu annuel récapitulatif : le reçu rectificatif ${fixed.number} (28,33 €) le remplace pour les autres dons qu’il comprenait et a été envoyé au donateur.`,
      `Le reçu ${alone.number} était un reçu annuel récapitulatif : il ne comprenait pas d’autre don, aucun reçu rectificatif n’est émis.`,
      `Le reçu ${uncovered.number} était un reçu annuel récapitulatif : les reçus étant désactivés ou leurs paramètres incomplets, aucun reçu rectificatif n’est émis pour les autres dons qu’il comprenait. Une fois les paramètres complétés, émettez les reçus annuels de ${parisYear(uncovered.paid_at)} (écran Reçus) : ils les couvriront.`,
    ];
    expect(mail).toEqual({
      subject: `Reçu fiscal annulé après remboursement : ${gift.number}, ${replaced.number}, ${alone.number}, ${uncovered.number}`,
      text: `${paragraphs.join('\n\n')}\n\nRegistre des reçus : https://dons.example.org/admin/receipts\n`,
      html: `${paragraphs.map((p) => `<p>${p}</p>`).join('')}<p><a href="https://dons.example.org/admin/receipts">Registre des reçus</a></p>`,
    });
  });

  it('after a refund, mails the corrected annual receipt to its donor, once, before telling the Admins', async () => {
    const cancelled = { ...(await giftReceipt()), kind: 'annual', donation_ids: '["d-1","d-2"]' } as Receipt;
    const fixed = { ...(await giftReceipt('en', 'corrige@example.org')), kind: 'annual', replaces_id: cancelled.id } as Receipt;
    const refund = { cancelled: [cancelled], reissued: [fixed] };
    await announceRefund(t.db, { from: 'x@example.org' }, refund, 'https://dons.example.org/admin/receipts');
    await announceRefund(t.db, { from: 'x@example.org' }, refund, 'https://dons.example.org/admin/receipts');
    const toDonor = await outbox('corrige@example.org');
    expect(toDonor.map((m) => m.subject)).toEqual([`Your ${parisYear(fixed.paid_at)} annual tax receipt — THV Foundation`]);
    const notices = await t.db.selectFrom('mail_outbox').select('text').where('to', '=', 'admin2@example.org').where('subject', '=', `Reçu fiscal annulé après remboursement : ${cancelled.number}`).execute();
    expect(notices).toHaveLength(2);
    expect(notices[0].text).toContain(`le reçu rectificatif ${fixed.number} (42,50 €) le remplace`);
  });

  it('a notice that cannot be written is logged, and the other Admins still get theirs', async () => {
    const r = await giftReceipt();
    const error = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    // The outbox refuses the first Admin's mail (a full disk, a lost connection…).
    let calls = 0;
    const db = new Proxy(t.db, {
      get(target, prop) {
        if (prop !== 'insertInto') {
          const value = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return (table: string) => {
          if (table === 'mail_outbox' && calls++ === 0) throw new Error('disk full');
          return target.insertInto(table as 'mail_outbox');
        };
      },
    });
    try {
      await notifyAdminsOfCancellation(db, { from: 'x@example.org' }, { cancelled: [r], reissued: [] }, 'https://dons.example.org/admin/receipts');
      expect(error).toHaveBeenCalledWith('admin notification failed', { error: 'disk full' });
    } finally {
      vi.restoreAllMocks();
    }
    const sent = await t.db.selectFrom('mail_outbox').select('to').where('subject', '=', `Reçu fiscal annulé après remboursement : ${r.number}`).execute();
    expect(sent).toHaveLength(1);
    expect(['admin1@example.org', 'admin2@example.org']).toContain(sent[0].to);
  });
});
