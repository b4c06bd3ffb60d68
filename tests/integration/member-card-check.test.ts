import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CARD, MM, sheetSlots, A4 } from '~/domain/membership/card-pdf.server';
import { cardCheckToken, cardCheckUrl, membershipOfCardToken, CHECK_LIMIT } from '~/domain/membership/card-check.server';
import { memberCardPdf } from '~/domain/membership/card.server';
import { applyDuesPayment } from '~/domain/membership/dues.server';
import { createMember, setOverride } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import { runtime } from '~/lib/runtime.server';
import { loader as checkPage } from '~/routes/membership/card-check';
import { loader as memberSpaceCard } from '~/routes/donors/member-card';
import { loader as adminCard } from '~/routes/membership/admin-card-pdf';
import { useSignInLink } from '~/domain/donors/links.server';
import { describeEachDialect } from '../support/db';
import { signInLinkToken } from '../support/donors';
import { memberInput, membershipType } from '../support/membership';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'member-card-check-'.padEnd(48, 'c');
const ORIGIN = 'https://fondation.example.org';
const ADMIN = { id: 'u1', name: 'Alice Admin' };

/** A PDF's page size in points, as poppler reads its page box. */
function pageSize(pdf: Buffer): { width: number; height: number; pages: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'card-'));
  fs.writeFileSync(path.join(dir, 'c.pdf'), pdf);
  const info = execFileSync('pdfinfo', [path.join(dir, 'c.pdf')], { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  const m = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info)!;
  return { width: Number(m[1]), height: Number(m[2]), pages: Number(/Pages:\s+(\d+)/.exec(info)![1]) };
}

/** The PDF's text as pdftotext reads it, white space folded. */
function pdfToText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' }).replace(/\s+/g, ' ').trim();
}

/** The first page drawn at 300 dpi by poppler, and the QR code a reader finds in it. */
async function qrOf(pdf: Buffer): Promise<string | undefined> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'card-'));
  fs.writeFileSync(path.join(dir, 'c.pdf'), pdf);
  execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', '-f', '1', '-l', '1', path.join(dir, 'c.pdf'), path.join(dir, 'page')]);
  const png = fs.readFileSync(path.join(dir, 'page.png'));
  fs.rmSync(dir, { recursive: true, force: true });
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data;
}

/**
 * The member card at ID-1 size (ADR 039) on both databases: its page box, its text, the QR code it
 * prints (read back from the drawn page) and the signed check page that code opens — valid,
 * expired, forged — with its headers and its pace.
 */
describeEachDialect('member card and its check page on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  const db = () => runtime().db;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN });
    const type = await createType(db(), ADMIN, membershipType({ name_fr: 'Membre bienfaiteur', name_en: 'Benefactor', name_es: 'Benefactor/a', period_model: 'calendar' }));
    ids.valid = (await createMember(db(), null, memberInput(type, { first_name: 'Awa', last_name: 'Diop', email: 'awa@example.org' }))).id;
    await applyDuesPayment(db(), { membershipId: ids.valid, paymentId: 'pay-awa', amountCents: 3000, paidAt: new Date().toISOString(), method: 'card' });
    ids.lapsed = (await createMember(db(), null, memberInput(type, { first_name: 'Léo', last_name: 'Martin', email: 'leo@example.org', language: 'en' }))).id;
    await setOverride(db(), ADMIN, ids.lapsed, { state: 'lapsed', reason: 'Radié' });
    ids.pending = (await createMember(db(), null, memberInput(type, { first_name: 'Pia', last_name: 'Attente', email: 'pia@example.org' }))).id;
    ids.honorary = (await createMember(db(), null, memberInput(type, { first_name: 'Lucía', last_name: 'Pérez', email: 'lucia@example.org', language: 'es', exempt: true }))).id;
  });
  afterAll(async () => {
    await app?.stop();
  });

  const card = (id: string, lang: 'fr' | 'en' | 'es', layout: 'card' | 'sheet' = 'card') => memberCardPdf(db(), id, lang, { secret: APP_SECRET, publicUrl: ORIGIN, layout, date: new Date('2026-02-01T12:00:00Z') });

  it('draws one card per page of exactly 85.6 × 54 mm, with the organisation, the name, type, number and validity', async () => {
    const pdf = await card(ids.valid, 'fr');
    const size = pageSize(pdf);
    expect(size.pages).toBe(1);
    expect(size.width).toBeCloseTo(85.6 * MM, 1);
    expect(size.height).toBeCloseTo(54 * MM, 1);
    expect(size.width).toBeCloseTo(242.65, 1);
    expect(size.height).toBeCloseTo(153.07, 1);
    const text = pdfToText(pdf);
    for (const words of ['Fondation THV', 'Carte de membre', 'Awa Diop', 'Type d’adhésion', 'Membre bienfaiteur', 'N° de membre', 'Valable jusqu’au', `31 décembre ${new Date().getUTCFullYear()}`]) expect(text).toContain(words);
    expect(text).not.toContain('awa@example.org');
    expect(text).not.toContain('rue des Lilas');
    expect(pdfToText(await card(ids.honorary, 'es'))).toContain('Sin límite de duración');
  });

  it('prints a QR code that reads back as the signed check address, in the card’s language', async () => {
    const fr = await qrOf(await card(ids.valid, 'fr'));
    expect(fr).toBe(cardCheckUrl(ORIGIN, 'fr', cardCheckToken(APP_SECRET, ids.valid)));
    expect(fr).toMatch(new RegExp(`^${ORIGIN}/adhesion/verifier/${ids.valid}\\.[A-Za-z0-9_-]{43}$`));
    expect(membershipOfCardToken(APP_SECRET, fr!.split('/').pop()!)).toBe(ids.valid);
    expect(await qrOf(await card(ids.lapsed, 'en'))).toBe(`${ORIGIN}/en/adhesion/verifier/${cardCheckToken(APP_SECRET, ids.lapsed)}`);
    // Without the secret or an origin to point at, no QR code is drawn (never a dead one).
    expect(await qrOf(await memberCardPdf(db(), ids.valid, 'fr'))).toBeUndefined();
  });

  it('lays the cards on an A4 sheet at exact size, inside the page, with the printing note', async () => {
    const pdf = await card(ids.valid, 'fr', 'sheet');
    const size = pageSize(pdf);
    expect(size).toMatchObject({ pages: 1 });
    expect(size.width).toBeCloseTo(595.28, 1);
    expect(size.height).toBeCloseTo(841.89, 1);
    const text = pdfToText(pdf);
    expect(text).toContain('Imprimez à taille réelle (100 %, sans ajustement à la page)');
    expect(text).toContain('Awa Diop');
    expect(await qrOf(pdf)).toBe(cardCheckUrl(ORIGIN, 'fr', cardCheckToken(APP_SECRET, ids.valid)));
    const slots = sheetSlots();
    expect(slots).toHaveLength(8);
    for (const s of slots) {
      expect(s.x).toBeGreaterThan(10 * MM);
      expect(s.y).toBeGreaterThan(10 * MM);
      expect(s.x + CARD.width).toBeLessThan(A4.width - 10 * MM);
      expect(s.y + CARD.height).toBeLessThan(A4.height - 10 * MM);
    }
    // Neighbours 10 mm apart: room for each card's cut marks.
    expect(slots[1].x - slots[0].x - CARD.width).toBeCloseTo(10 * MM, 5);
    expect(slots[2].y - slots[0].y - CARD.height).toBeCloseTo(10 * MM, 5);
  });

  async function check(token: string, { lang = '', ip = '10.9.0.1' }: { lang?: string; ip?: string } = {}) {
    const request = new Request(`${ORIGIN}${lang ? `/${lang}` : ''}/adhesion/verifier/${token}`);
    return answer(await checkPage({ request, context: routeContext(ip), params: { token }, unstable_pattern: '' } as never));
  }

  it('says “valid” with the name and type only, for a member counted today, never cached or indexed', async () => {
    const r = await check(cardCheckToken(APP_SECRET, ids.valid));
    expect(r.status).toBe(200);
    expect(r.body.check).toEqual({ status: 'valid', name: 'Awa Diop', type: 'Membre bienfaiteur' });
    expect(r.headers.get('Cache-Control')).toBe('private, no-store');
    expect(r.headers.get('X-Robots-Tag')).toBe('noindex');
    expect((await check(cardCheckToken(APP_SECRET, ids.honorary), { lang: 'es' })).body.check).toEqual({ status: 'valid', name: 'Lucía Pérez', type: 'Benefactor/a' });
  });

  it('says “expired” for a genuine card of a membership struck off or never paid', async () => {
    expect((await check(cardCheckToken(APP_SECRET, ids.lapsed), { lang: 'en' })).body.check).toEqual({ status: 'expired', name: 'Léo Martin', type: 'Benefactor' });
    expect((await check(cardCheckToken(APP_SECRET, ids.pending))).body.check).toMatchObject({ status: 'expired', name: 'Pia Attente' });
  });

  it('names no one for a forged, altered or foreign token', async () => {
    const genuine = cardCheckToken(APP_SECRET, ids.valid);
    const forged = [
      `${ids.valid}.${'A'.repeat(43)}`,
      `${ids.lapsed}.${genuine.split('.')[1]}`,
      cardCheckToken('another-site-secret'.padEnd(48, 'x'), ids.valid),
      ids.valid,
      `${genuine}x`,
      cardCheckToken(APP_SECRET, 'no-such-membership'),
    ];
    for (const token of forged) {
      const r = await check(token);
      expect(r.body.check, token).toEqual({ status: 'invalid' });
      expect(r.status).toBe(404);
      expect(r.headers.get('Cache-Control')).toBe('private, no-store');
    }
  });

  it('paces one address: past the limit a minute, 429 with Retry-After, other addresses unaffected', async () => {
    const token = cardCheckToken(APP_SECRET, ids.valid);
    for (let i = 0; i < CHECK_LIMIT; i++) expect((await check(token, { ip: '10.9.9.9' })).status).toBe(200);
    const over = await check(token, { ip: '10.9.9.9' });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ tooMany: true });
    expect(Number(over.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await check(token, { ip: '10.9.9.10' })).status).toBe(200);
  });

  it('serves the signed-in member both layouts from the member space', async () => {
    const session = await useSignInLink(db(), await signInLinkToken(db(), 'awa@example.org'));
    const cookie = `__donor=${session!.token}`;
    const get = async (query: string) =>
      (await memberSpaceCard({ request: new Request(`${ORIGIN}/mon-espace/carte/${ids.valid}${query}`, { headers: { Cookie: cookie } }), context: routeContext(), params: { membershipId: ids.valid }, unstable_pattern: '' } as never)) as Response;
    const small = await get('');
    expect(small.headers.get('Content-Disposition')).toBe('attachment; filename="carte-membre-1.pdf"');
    expect(pageSize(Buffer.from(await small.arrayBuffer())).width).toBeCloseTo(242.65, 1);
    const sheet = await get('?format=a4');
    expect(sheet.headers.get('Content-Disposition')).toBe('attachment; filename="planche-carte-membre-1.pdf"');
    expect(sheet.headers.get('Cache-Control')).toBe('private, no-store');
    const pdf = Buffer.from(await sheet.arrayBuffer());
    expect(pageSize(pdf).width).toBeCloseTo(595.28, 1);
    expect(await qrOf(pdf)).toBe(cardCheckUrl(ORIGIN, 'fr', cardCheckToken(APP_SECRET, ids.valid)));
  });

  it('serves staff a member’s card in the member’s language from the register, and nobody signed out', async () => {
    const cookie = await sessionCookie(db(), { id: 'e1', name: 'Éric Éditeur', email: 'eric@example.org', role: 'Éditeur' });
    const get = async (query: string, headers: Record<string, string> = { Cookie: cookie }) => {
      try {
        return (await adminCard({ request: new Request(`${ORIGIN}/admin/adhesions/${ids.lapsed}/carte.pdf${query}`, { headers }), context: routeContext(), params: { memberId: ids.lapsed }, unstable_pattern: '' } as never)) as Response;
      } catch (thrown) {
        return thrown as Response;
      }
    };
    const sheet = await get('?format=a4');
    expect(sheet.status).toBe(200);
    expect(sheet.headers.get('Content-Disposition')).toBe('attachment; filename="membership-card-sheet-2.pdf"');
    const pdf = Buffer.from(await sheet.arrayBuffer());
    expect(pageSize(pdf).height).toBeCloseTo(841.89, 1);
    expect(pdfToText(pdf)).toContain('Léo Martin');
    expect(pageSize(Buffer.from(await (await get('')).arrayBuffer())).width).toBeCloseTo(242.65, 1);
    expect((await get('', {})).status).toBe(302);
  });
});
