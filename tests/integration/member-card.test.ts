import { afterAll, beforeAll, expect, it } from 'vitest';
import { getMeta } from 'unpdf';
import { memberCardPdf, mailMemberCard, type MemberCardDeps } from '~/domain/membership/card.server';
import { MM } from '~/domain/membership/card-pdf.server';
import { applyDuesPayment, MembershipNotFoundError } from '~/domain/membership/dues.server';
import { createMember, setOverride } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import { getEditableSiteSettings, saveSiteSettings } from '~/domain/settings/site-settings.server';
import type { Storage } from '~/lib/storage.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { makePng } from '../support/media-files';
import { memberInput, membershipType } from '../support/membership';
import { attachedPdf, imagesDrawn, pdfText } from '../support/pdf';
import { startSmtp } from '../support/smtp';

const ADMIN = { id: 'u1', name: 'Alice Admin' };

/** The member card on both databases: what it prints in each language, and the mail that carries it (ADR 021). */
describeEachDialect('member card on %s', (dialect) => {
  let t: TestDb;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let deps: MemberCardDeps;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestDb(dialect);
    smtp = await startSmtp();
    deps = { db: t.db, env: { SMTP_URL: smtp.url, MAIL_FROM: 'Fondation THV <adhesions@example.org>' }, publicUrl: 'https://fondation.example.org' };
    const type = await createType(t.db, ADMIN, membershipType({ name_fr: 'Membre bienfaiteur', name_en: 'Benefactor', name_es: 'Benefactor/a', period_model: 'calendar' }));
    ids.fr = (await createMember(t.db, null, memberInput(type, { first_name: 'Awa', last_name: 'Diop', email: 'awa@example.org' }))).id;
    await applyDuesPayment(t.db, { membershipId: ids.fr, paymentId: 'pay-awa', amountCents: 3000, paidAt: '2026-02-01T10:00:00.000Z', method: 'card' });
    ids.en = (await createMember(t.db, null, memberInput(type, { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.org', language: 'en' }))).id;
    await applyDuesPayment(t.db, { membershipId: ids.en, paymentId: 'pay-grace', amountCents: 3000, paidAt: '2026-03-01T10:00:00.000Z', method: 'card' });
    ids.es = (await createMember(t.db, null, memberInput(type, { first_name: 'Lucía', last_name: 'Pérez', email: 'lucia@example.org', language: 'es', exempt: true }))).id;
    ids.paper = (await createMember(t.db, null, memberInput(type, { first_name: 'Paul', last_name: 'Papier', email: '' }))).id;
    ids.pending = (await createMember(t.db, null, memberInput(type, { first_name: 'Pia', last_name: 'Attente', email: 'pia@example.org' }))).id;
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.destroy();
  });

  it('prints the foundation, the member’s name, number, type and last paid day, in French, tagged', async () => {
    const pdf = await memberCardPdf(t.db, ids.fr, 'fr', { date: new Date('2026-02-01T12:00:00Z') });
    expect(await pdfText(pdf)).toBe(
      'Fondation THV Carte de membre Awa Diop Type d’adhésion Membre bienfaiteur N° de membre 1 Valable jusqu’au 31 décembre 2026 ' +
        'Carte personnelle, à présenter lors des événements réservés aux membres et de l’assemblée générale.',
    );
    const meta = await getMeta(new Uint8Array(pdf));
    expect(meta.info).toMatchObject({ Title: 'Carte de membre 1', Author: 'Fondation THV', Language: 'fr-FR' });
    expect(pdf.toString('latin1')).toMatch(/\/StructTreeRoot/);
    expect(pdf.toString('latin1')).toContain('/Lang (fr-FR)');
  });

  it('speaks the language asked, says “no expiry” for an honorary member and “awaiting the dues” for a pending one', async () => {
    expect(await pdfText(await memberCardPdf(t.db, ids.en, 'en'))).toContain('THV Foundation Membership card Grace Hopper Membership type Benefactor Member no. 2 Valid until 31 December 2026');
    expect(await pdfText(await memberCardPdf(t.db, ids.es, 'es'))).toContain('Lucía Pérez Tipo de afiliación Benefactor/a N.º de miembro 3 Válido hasta el Sin límite de duración');
    expect(await pdfText(await memberCardPdf(t.db, ids.pending, 'fr'))).toContain('Valable jusqu’au En attente du paiement de la cotisation');
    await expect(memberCardPdf(t.db, 'no-such-member', 'fr')).rejects.toBeInstanceOf(MembershipNotFoundError);
  });

  it('draws the logo set in the site settings, and none without one', async () => {
    const storage: Storage = { put: async () => {}, get: async (key) => (key === 'logo-card.png' ? makePng(200, 100) : undefined), delete: async () => {} };
    expect(await imagesDrawn(await memberCardPdf(t.db, ids.fr, 'fr', { storage }))).toEqual([]);
    const site = await getEditableSiteSettings(t.db);
    expect(await saveSiteSettings(t.db, ADMIN, { ...site.settings, siteLogoUrl: '/media/logo-card.png' }, site.version)).toBe('ok');
    const [logo, ...others] = await imagesDrawn(await memberCardPdf(t.db, ids.fr, 'fr', { storage }));
    expect(others).toEqual([]);
    // Fitted in 8 mm square at the card's top left, its proportions kept.
    expect(logo.w).toBeCloseTo(8 * MM, 1);
    expect(logo.h).toBeCloseTo(4 * MM, 1);
  });

  it('mails the card in the member’s language, with the card attached in that language', async () => {
    expect(await mailMemberCard(deps, ids.en)).toMatchObject({ status: 'sent' });
    const mail = await smtp.mailTo('grace@example.org');
    expect(mail.text).toContain('Subject: Your THV Foundation membership card');
    expect(mail.text).toContain('Hello Grace Hopper, welcome among the members of the THV Foundation! Please find attached your membership card (no. 2, Benefactor), valid until 31 December 2026.');
    expect(mail.text).toContain('https://fondation.example.org/en/mon-espace');
    const { name, pdf } = attachedPdf(mail.raw);
    expect(name).toBe('membership-card-2.pdf');
    expect(await pdfText(pdf)).toContain('Membership card Grace Hopper');

    expect(await mailMemberCard(deps, ids.fr)).toMatchObject({ status: 'sent' });
    const fr = await smtp.mailTo('awa@example.org');
    expect(fr.text).toContain('Subject: Votre carte de membre de la Fondation THV');
    expect(fr.text).toContain('Bonjour Awa Diop, bienvenue parmi les membres de la Fondation THV ! Vous trouverez ci-joint votre carte de membre (n° 1, Membre bienfaiteur), valable jusqu’au 31 décembre 2026.');
    expect(fr.text).toContain('https://fondation.example.org/mon-espace\n');
    expect(attachedPdf(fr.raw).name).toBe('carte-membre-1.pdf');

    expect(await mailMemberCard(deps, ids.es)).toMatchObject({ status: 'sent' });
    const es = await smtp.mailTo('lucia@example.org');
    // A subject with accents travels encoded: the outbox keeps it as written.
    const outbox = await t.db.selectFrom('mail_outbox').select('subject').where('to', '=', 'lucia@example.org').execute();
    expect(outbox.map((o) => o.subject)).toEqual(['Su carné de miembro de la Fundación THV']);
    expect(es.text).toContain('Encontrará adjunto su carné de miembro (n.º 3, Benefactor/a).');
    expect(await pdfText(attachedPdf(es.raw).pdf)).toContain('Sin límite de duración');
  });

  it('sends nothing to a member without an e-mail address, and throws for an unknown membership', async () => {
    const before = smtp.mails.length;
    expect(await mailMemberCard(deps, ids.paper)).toEqual({ status: 'skipped' });
    await expect(mailMemberCard(deps, 'no-such-member')).rejects.toBeInstanceOf(MembershipNotFoundError);
    expect(smtp.mails.length).toBe(before);
  });

  it('an Admin’s “honorary” override prints “no expiry”', async () => {
    await setOverride(t.db, ADMIN, ids.pending, { state: 'honorary', reason: 'Fondatrice' });
    expect(await pdfText(await memberCardPdf(t.db, ids.pending, 'fr'))).toContain('Valable jusqu’au Sans limite de durée');
  });
});
