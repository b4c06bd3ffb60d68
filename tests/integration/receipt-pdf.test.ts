import { describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { receiptFileName, receiptForm, renderReceiptPdf } from '~/domain/receipts/pdf.server';
import { formText } from '~/lib/form-pdf.server';
import { regimeOf } from '~/domain/receipts/regimes';
import type { OrganisationSnapshot, Receipt } from '~/domain/receipts/register.server';
import type { TaxDetails } from '~/domain/receipts/donor-details';
import type { Storage } from '~/lib/storage.server';
import { imagesDrawn } from '../support/pdf';
import { DONOR, ORGANISATION } from '../support/receipts';
import { makeGif, makeJpeg, makePng, makeWebp } from '../support/media-files';

/**
 * The tax receipt as the donor and the tax office read it: rendered from a receipt row (no
 * database needed), read back from the PDF with unpdf.
 */

const COMPANY: TaxDetails = { ...DONOR, kind: 'company', company: 'ACME', legalForm: 'SAS', siren: '987654321', name: 'Jean Martin' };

function receipt(changes: Partial<Receipt> = {}, org: Partial<OrganisationSnapshot> = {}): Receipt {
  const { enabled: _enabled, ...organisation } = { ...ORGANISATION, ...org };
  return {
    id: 'r-1',
    number: 'RF-2025-000042',
    year: 2025,
    seq: 42,
    kind: 'gift',
    donation_id: 'd-1',
    donation_ids: '["d-1"]',
    donor_email: 'awa@example.org',
    language: 'fr',
    donor: JSON.stringify(DONOR),
    organisation: JSON.stringify(organisation),
    amount_cents: 123_456,
    // 23:30 UTC on 14 March is still 14 March in Paris; the issue is past midnight in Paris.
    paid_at: '2025-03-14T22:30:00.000Z',
    method: 'Carte bancaire',
    issued_at: '2025-03-14T23:30:00.000Z',
    status: 'issued',
    cancelled_at: null,
    cancel_reason: null,
    replaces_id: null,
    sent_at: null,
    nature: 'numeraire',
    nature_description: null,
    regime: regimeOf(JSON.parse(changes.donor ?? JSON.stringify(DONOR)) as TaxDetails),
    ...changes,
  };
}

/** The PDF's text as a text extractor reads it, in order, spaces folded. */
async function pdfText(pdf: Buffer): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(doc, { mergePages: true });
  return text.replace(/\s+/g, ' ').trim();
}

const A4 = { width: 595.28, height: 841.89 };
const TITLE = 'Reçu au titre des dons à certains organismes d’intérêt général';

/** The text pieces on page 1, with their left edge and baseline measured from the top of the page. */
async function textItems(pdf: Buffer): Promise<{ str: string; x: number; y: number; width: number }[]> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const items = (await (await doc.getPage(1)).getTextContent()).items as { str: string; width: number; transform: number[] }[];
  return items.filter((i) => i.str.trim()).map((i) => ({ str: i.str, x: i.transform[4], y: A4.height - i.transform[5], width: i.width }));
}

/** Every rectangle the page draws (`re`), in points from the top-left corner (pdfkit draws top-down). */
function rectsDrawn(pdf: Buffer): { x: number; y: number; w: number; h: number }[] {
  const raw = pdf.toString('latin1');
  const rects: { x: number; y: number; w: number; h: number }[] = [];
  for (const m of raw.matchAll(/\/FlateDecode[^]*?stream\r?\n([^]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1], 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const r of content.matchAll(/^(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re$/gm)) rects.push({ x: +r[1], y: +r[2], w: +r[3], h: +r[4] });
  }
  return rects;
}

/** A storage holding the given files (what the media library would return). */
function memoryStorage(files: Record<string, Buffer>): Storage & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    put: async () => {},
    get: async (key) => {
      asked.push(key);
      return files[key];
    },
    delete: async () => {},
  };
}

const HEADER = [TITLE, 'Modèle conforme au formulaire CERFA n° 11580', 'Articles 200, 238 bis et 978 du code général des impôts (CGI)', 'Numéro d’ordre du reçu : RF-2025-000042'];
const BASES = ['Fondation reconnue d’utilité publique', 'Association reconnue d’utilité publique', 'Organisme d’intérêt général', 'Organisme d’aide gratuite aux personnes en difficulté'];

describe('the CERFA 11580 receipt PDF', () => {
  it('prints, section by section and in reading order, everything an individual donor’s receipt must say', async () => {
    const text = await pdfText(await renderReceiptPdf(receipt()));
    expect(text).toBe(
      [
        ...HEADER,
        'Bénéficiaire des versements',
        'Nom ou dénomination : Fondation THV',
        'Adresse : 12 rue de la Paix, 75002 Paris',
        'N° SIREN / RNA : 123456789',
        'Objet : Aide humanitaire et développement en Afrique de l’Ouest',
        'Qualité de l’organisme :',
        `X ${BASES[0]}`,
        ...BASES.slice(1),
        'Donateur',
        'Nom et prénom : Awa Diallo',
        'Adresse : 3 rue des Lilas, 75011 Paris, France',
        'Versement',
        'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt, la somme de :',
        'Montant en chiffres : 1 234,56 €',
        'Somme en toutes lettres : mille deux cent trente-quatre euros et cinquante-six centimes',
        'Date du versement : 14 mars 2025',
        'Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction d’impôt prévue à l’article 200 du CGI.',
        'Taux de réduction : 66 % (article 200-1 du CGI)',
        'Forme du don : déclaration de don manuel',
        'Nature du don : numéraire',
        'Mode de versement : Carte bancaire',
        'Signature',
        // Issued at 00:30 in Paris on 15 March: the date is the Paris one, written out in French.
        'Date d’émission : 15 mars 2025',
        'Marie Curie, Présidente',
        'Signature de la personne habilitée',
      ].join(' '),
    );
    expect(text).not.toContain('ANNULÉ');
  });

  it('draws a check box per quality, crossed only in front of the organisation’s legal basis, and prints the 75 % rate of aid to people in difficulty', async () => {
    const pdf = await renderReceiptPdf(receipt({}, { legalBase: 'aide_personnes', rate: '75' }));
    const text = await pdfText(pdf);
    expect(text).toContain(`Qualité de l’organisme : ${BASES.slice(0, 3).join(' ')} X ${BASES[3]} Donateur`);
    expect(text).toContain('Taux de réduction : 75 % (aide aux personnes en difficulté, article 200-1 ter du CGI)');
    const boxes = rectsDrawn(pdf).filter((r) => r.w === 10 && r.h === 10);
    expect(boxes).toHaveLength(4);
    const items = await textItems(pdf);
    // Each box sits on the line of its quality, left of it.
    BASES.forEach((label, i) => {
      const line = items.find((t) => t.str === label)!;
      expect(Math.abs(line.y - (boxes[i].y + 9)), label).toBeLessThan(2);
      expect(line.x).toBeGreaterThan(boxes[i].x + 10);
    });
    // One cross, inside the fourth box.
    const crosses = items.filter((t) => t.str === 'X');
    expect(crosses).toHaveLength(1);
    const [cross] = crosses;
    expect(cross.x).toBeGreaterThan(boxes[3].x);
    expect(cross.x + cross.width).toBeLessThan(boxes[3].x + 10);
    expect(cross.y).toBeGreaterThan(boxes[3].y);
    expect(cross.y).toBeLessThan(boxes[3].y + 10);
  });

  it('makes out a company’s receipt on the CERFA n° 16216 model: the company, its SIREN and its representative, under article 238 bis (ADR 035)', async () => {
    const text = await pdfText(await renderReceiptPdf(receipt({ donor: JSON.stringify(COMPANY), amount_cents: 50_000, method: 'PayPal' }, { rate: '75' })));
    expect(text).toContain('Reçu des dons et versements effectués par les entreprises au titre de l’article 238 bis du code général des impôts Modèle conforme au formulaire CERFA n° 16216');
    expect(text).not.toContain('11580');
    expect(text).toContain('Entreprise donatrice Dénomination : ACME Forme juridique : SAS N° SIREN : 987654321 Adresse : 3 rue des Lilas, 75011 Paris, France Représentée par : Jean Martin');
    expect(text).toContain('Montant en chiffres : 500,00 € Somme en toutes lettres : cinq cents euros');
    expect(text).toContain('la réduction d’impôt prévue à l’article 238 bis du code général des impôts.');
    // A company's relief is 60 % whatever rate the organisation gives individuals.
    expect(text).toContain('Réduction d’impôt de 60 % du montant');
    expect(text).not.toContain('75 %');
    expect(text).toContain('En cas de don en numéraire, mode de versement du don : Remise d’espèces Chèque X Virement, prélèvement, carte bancaire');
  });

  it('states a gift in kind and a volunteer’s waived expenses as the form’s "Autres" nature, with what was given (ADR 030)', async () => {
    const goods = await pdfText(await renderReceiptPdf(receipt({ nature: 'nature', nature_description: 'Dix ordinateurs portables reconditionnés', method: 'Remise de biens', amount_cents: 150_000 })));
    expect(goods).toContain('Forme du don : déclaration de don manuel Nature du don : en nature (autres) Description : Dix ordinateurs portables reconditionnés Mode de versement : Remise de biens Signature');
    expect(goods).not.toContain('numéraire');
    const waived = await pdfText(await renderReceiptPdf(receipt({ nature: 'abandon_frais', nature_description: 'Trajets vers l’entrepôt, 1 200 km, 5 CV', method: 'Abandon de frais' })));
    expect(waived).toContain('Forme du don : autres (renonciation expresse au remboursement des frais) Nature du don : abandon de frais (autres) Description : Trajets vers l’entrepôt, 1 200 km, 5 CV Mode de versement : Abandon de frais');
    // An unknown word read back from an old row is money, as every receipt before migration 024.
    expect(await pdfText(await renderReceiptPdf(receipt({ nature: 'autre chose' })))).toContain('Nature du don : numéraire Mode de versement : Carte bancaire');
  });

  it('prints an annual receipt as the year’s summary, with the date of the last gift', async () => {
    const text = await pdfText(await renderReceiptPdf(receipt({ kind: 'annual', donation_id: null, amount_cents: 4250, paid_at: '2024-12-31T23:30:00.000Z', issued_at: '2025-01-02T09:00:00.000Z' })));
    // 23:30 UTC on 31 December 2024 is already 1 January 2025 in Paris.
    expect(text).toContain('Somme en toutes lettres : quarante-deux euros et cinquante centimes Dons de l’année 2025 (reçu récapitulatif), dernier versement le 1 janvier 2025 Le bénéficiaire certifie');
    expect(text).not.toContain('Date du versement');
    expect(text).toContain('Signature Date d’émission : 2 janvier 2025');
  });

  it('marks a cancelled receipt “REÇU ANNULÉ” in a red frame under the header, with the date and reason of the cancellation', async () => {
    const pdf = await renderReceiptPdf(receipt({ status: 'cancelled', cancelled_at: '2025-04-02T08:00:00.000Z', cancel_reason: 'Don remboursé' }));
    const text = await pdfText(pdf);
    expect(text).toContain(`${HEADER.join(' ')} REÇU ANNULÉ le 2 avril 2025 : Don remboursé Bénéficiaire des versements`);
    // The issue date stays what it was.
    expect(text).toContain('Date d’émission : 15 mars 2025');
    expect(pdf.length).toBeGreaterThan(0);
    const notice = (await textItems(pdf)).find((t) => t.str.startsWith('REÇU ANNULÉ'))!;
    const frame = rectsDrawn(pdf).find((r) => r.w > 500 && r.y < notice.y && r.y + r.h > notice.y && r.h < 40);
    expect(frame, 'a frame around the notice').toBeDefined();
  });

  it('dates a cancellation recorded without date or reason from the issue, and prints no made-up reason', async () => {
    const text = await pdfText(await renderReceiptPdf(receipt({ status: 'cancelled' })));
    expect(text).toContain('REÇU ANNULÉ le 15 mars 2025 : Bénéficiaire des versements');
  });

  it('is one A4 page, tagged, in French, showing its title, with the receipt’s title, organisation and issue date in its metadata', async () => {
    const pdf = await renderReceiptPdf(receipt());
    const doc = await getDocumentProxy(new Uint8Array(pdf));
    expect(doc.numPages).toBe(1);
    const [, , width, height] = (await doc.getPage(1)).view;
    expect(width).toBeCloseTo(A4.width, 1);
    expect(height).toBeCloseTo(A4.height, 1);
    const { info } = await getMeta(new Uint8Array(pdf));
    expect(info).toMatchObject({
      Title: 'Reçu fiscal RF-2025-000042',
      Author: 'Fondation THV',
      Subject: 'Reçu au titre des dons (CERFA n° 11580)',
      Producer: 'Fondation THV',
      Creator: 'Fondation THV',
      CreationDate: 'D:20250314233000Z',
      ModDate: 'D:20250314233000Z',
      Language: 'fr-FR',
    });
    expect(await doc.getMarkInfo()).toMatchObject({ Marked: true });
    expect(pdf.toString('latin1')).toMatch(/\/DisplayDocTitle true/);
  });

  it('gives screen readers a structure in reading order: the title, the references, then each section under its heading', async () => {
    const storage = memoryStorage({ 'logo.png': await makePng(200, 200), 'signature.png': await makePng(300, 100) });
    const pdf = await renderReceiptPdf(receipt({}, { logoUrl: '/media/logo.png', signatureImage: '/media/signature.png' }), storage);
    const doc = await getDocumentProxy(new Uint8Array(pdf));
    type Node = { role?: string; alt?: string; children?: Node[] };
    const tree = (await (await doc.getPage(1)).getStructTree()) as Node;
    const [document] = tree.children!;
    expect(document.role).toBe('Document');
    const roles = (n: Node) => n.children!.filter((c) => c.role).map((c) => c.role);
    expect(roles(document)).toEqual(['Figure', 'H1', 'P', 'P', 'P', 'Sect', 'Sect', 'Sect', 'Sect']);
    expect(document.children![0].alt).toBe('Logo de Fondation THV');
    const sections = document.children!.filter((c) => c.role === 'Sect');
    expect(sections.map((s) => roles(s)[0])).toEqual(['H2', 'H2', 'H2', 'H2']);
    expect(roles(sections[0])).toEqual(['H2', 'P', 'P', 'P', 'P', 'P', 'L']);
    const list = sections[0].children!.find((c) => c.role === 'L')!;
    expect(list.children!.map((li) => roles(li))).toEqual(Array(4).fill(['Lbl', 'LBody']));
    expect(roles(sections[3])).toEqual(['H2', 'P', 'P', 'P', 'Figure']);
    expect(sections[3].children!.find((c) => c.role === 'Figure')!.alt).toBe('Signature de Marie Curie');
  });

  it('gives the same, compressed bytes on every render (its dates are the issue date, not the time of rendering)', async () => {
    const pdf = await renderReceiptPdf(receipt());
    expect(Buffer.compare(await renderReceiptPdf(receipt()), pdf)).toBe(0);
    // The page's content stream is deflated (a receipt is a few kilobytes, mailed as is).
    expect(pdf.toString('latin1')).toMatch(/\/Filter \/FlateDecode/);
    expect(pdf.length).toBeLessThan(12_000);
  });

  it('frames each section under a shaded band holding its title, one under the other, all on the page', async () => {
    const pdf = await renderReceiptPdf(receipt({}, { object: 'Aide humanitaire '.repeat(29).trim(), legalName: 'F'.repeat(200) }));
    const items = await textItems(pdf);
    const rects = rectsDrawn(pdf);
    const frames = rects.filter((r) => r.w > 500 && r.h > 40);
    expect(frames).toHaveLength(4);
    ['Bénéficiaire des versements', 'Donateur', 'Versement', 'Signature'].forEach((heading, i) => {
      const frame = frames[i];
      const title = items.find((t) => t.str === heading)!;
      // The band: as wide as the frame, at its top, the title inside it.
      const band = rects.find((r) => r.x === frame.x && r.y === frame.y && r.w === frame.w && r.h < 25)!;
      expect(band, heading).toBeDefined();
      expect(title.y).toBeGreaterThan(band.y);
      expect(title.y).toBeLessThan(band.y + band.h);
      expect(title.x).toBeGreaterThan(frame.x);
      if (i > 0) expect(frame.y, heading).toBeGreaterThan(frames[i - 1].y + frames[i - 1].h);
      expect(frame.y + frame.h).toBeLessThan(A4.height - 20);
    });
    // Every line of text is inside the page's margins.
    for (const t of items) {
      expect(t.x, t.str).toBeGreaterThanOrEqual(36);
      expect(t.x + t.width, t.str).toBeLessThanOrEqual(A4.width - 36 + 0.5);
    }
  });

  it('puts the amount in figures and in words each in a box, after its label', async () => {
    const pdf = await renderReceiptPdf(receipt());
    const items = await textItems(pdf);
    const rects = rectsDrawn(pdf);
    for (const [label, value] of [
      ['Montant en chiffres :', '1 234,56 €'],
      ['Somme en toutes lettres :', 'mille deux cent trente-quatre euros et cinquante-six centimes'],
    ]) {
      const l = items.find((t) => t.str === label)!;
      const v = items.find((t) => t.str === value)!;
      const box = rects.find((r) => r.x < v.x && v.x + v.width < r.x + r.w && r.y < v.y && v.y < r.y + r.h && r.w < 500)!;
      expect(box, value).toBeDefined();
      expect(l.x + l.width).toBeLessThan(box.x);
    }
  });

  it('keeps the "Forme juridique" line, blank for hand filling, on a company receipt whose details were stored before the form asked for it', async () => {
    const { legalForm: _, ...older } = COMPANY;
    const text = await pdfText(await renderReceiptPdf(receipt({ donor: JSON.stringify(older), amount_cents: 50_000, method: 'PayPal' })));
    expect(text).toMatch(/Dénomination : ACME Forme juridique :\s*N° SIREN : 987654321/);
  });

  it('stays on one page with the longest values the settings and the donate form accept', async () => {
    const long = { ...COMPANY, company: 'C'.repeat(200), legalForm: 'F'.repeat(60), name: 'N'.repeat(120), address: 'A '.repeat(150).trim(), city: 'V'.repeat(120) };
    const pdf = await renderReceiptPdf(
      receipt(
        { donor: JSON.stringify(long), status: 'cancelled', cancel_reason: 'R '.repeat(100).trim(), amount_cents: 987_654_321_99, method: 'Cryptomonnaie (CoinGate)' },
        { legalName: 'L '.repeat(100).trim(), address: 'A '.repeat(150).trim(), city: 'C'.repeat(120), object: 'O '.repeat(250).trim(), signatoryName: 'S'.repeat(120), signatoryTitle: 'T'.repeat(120) },
      ),
    );
    expect((await getDocumentProxy(new Uint8Array(pdf))).numPages).toBe(1);
  });

  it('prints the site’s logo named by the receipt at the top left, fitted in 72 × 72, and none without one', async () => {
    const storage = memoryStorage({ 'logo.png': await makePng(400, 200) });
    const pdf = await renderReceiptPdf(receipt({}, { logoUrl: '/media/logo.png' }), storage);
    const [logo, ...others] = await imagesDrawn(pdf);
    expect(others).toEqual([]);
    expect(logo.w).toBeCloseTo(72, 1);
    expect(logo.h).toBeCloseTo(36, 1);
    expect(logo.x).toBeCloseTo(36, 1);
    // Centred in the 72-point square under the top margin: its lower edge is 36 + 18 + 36 down.
    expect(logo.y).toBeCloseTo(90, 1);
    const title = (await textItems(pdf)).find((t) => t.str.startsWith('Reçu au titre'))!;
    expect(title.x).toBeGreaterThan(logo.x + logo.w);
    expect(Buffer.compare(await renderReceiptPdf(receipt({}, { logoUrl: '/media/logo.png' }), storage), pdf)).toBe(0);
    expect(await imagesDrawn(await renderReceiptPdf(receipt({}, { logoUrl: '' }), storage))).toEqual([]);
    // A receipt issued before logos were printed names none.
    expect(await imagesDrawn(await renderReceiptPdf(receipt(), storage))).toEqual([]);
    // Without a logo the title takes its place, and the text is the same.
    expect(await pdfText(await renderReceiptPdf(receipt()))).toBe(await pdfText(pdf));
  });

  it('converts an SVG, WebP or GIF logo to an image the PDF can hold, and prints a missing or broken logo as no logo', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><rect width="100" height="50" fill="#c2410c"/></svg>');
    const storage = memoryStorage({ 'logo.svg': svg, 'logo.webp': await makeWebp(300, 300), 'logo.gif': await makeGif(200, 100), 'broken.svg': Buffer.from('<svg'), 'broken.webp': Buffer.from('nope') });
    for (const [url, w, h] of [
      ['/media/logo.svg', 72, 36],
      ['/media/logo.webp', 72, 72],
      ['/media/logo.gif', 72, 36],
    ] as const) {
      const drawn = await imagesDrawn(await renderReceiptPdf(receipt({}, { logoUrl: url }), storage));
      expect(drawn, url).toHaveLength(1);
      expect(drawn[0].w, url).toBeCloseTo(w, 1);
      expect(drawn[0].h, url).toBeCloseTo(h, 1);
    }
    for (const url of ['/media/broken.svg', '/media/broken.webp', '/media/missing.png', '/media/logo.txt', 'https://elsewhere.example/logo.png']) {
      const pdf = await renderReceiptPdf(receipt({}, { logoUrl: url }), storage);
      expect(await imagesDrawn(pdf), url).toEqual([]);
      expect(await pdfText(pdf)).toContain(TITLE);
    }
  });

  it('prints the signature from the media library fitted in the signature box, right of the signatory', async () => {
    const png = await makePng(300, 100);
    const storage = memoryStorage({ 'signature.png': png, 'signature.JPG': await makeJpeg(200, 200) });
    const withPng = await renderReceiptPdf(receipt({}, { signatureImage: '/media/signature.png' }), storage);
    const [image] = await imagesDrawn(withPng);
    const box = rectsDrawn(withPng).find((r) => r.w === 180 && r.h === 64)!;
    expect(box).toBeDefined();
    // 300 × 100 fitted in the box less 4 points each side keeps its proportions: 168 × 56, centred.
    expect(image.w).toBeCloseTo(168, 1);
    expect(image.h).toBeCloseTo(56, 1);
    expect(image.x).toBeCloseTo(box.x + 6, 1);
    expect(image.y).toBeCloseTo(box.y + 60, 1);
    const items = await textItems(withPng);
    const signatory = items.find((t) => t.str === 'Marie Curie, Présidente')!;
    expect(signatory.x + signatory.width).toBeLessThan(box.x);
    expect(items.find((t) => t.str === 'Signature de la personne habilitée')!.y).toBeLessThan(box.y);
    expect(Buffer.compare(await renderReceiptPdf(receipt({}, { signatureImage: '/media/signature.png' }), storage), withPng)).toBe(0);
    const withJpeg = await imagesDrawn(await renderReceiptPdf(receipt({}, { signatureImage: '/media/signature.JPG' }), storage));
    expect(withJpeg).toHaveLength(1);
    expect(withJpeg[0].w).toBeCloseTo(56, 1);
    expect(withJpeg[0].h).toBeCloseTo(56, 1);
  });

  it('prints no signature image that is not an image file, is missing or unreadable, and still prints the signatory and an empty box', async () => {
    const png = await makePng(300, 100);
    const storage = memoryStorage({ 'signature.png.bak': png, 'broken.png': Buffer.from('not an image'), 'signature.pdf': png });
    for (const url of ['/media/signature.png.bak', '/media/signature.pdf', '/media/missing.png', '/media/broken.png', 'https://elsewhere.example/signature.png']) {
      const pdf = await renderReceiptPdf(receipt({}, { signatureImage: url }), storage);
      expect(await imagesDrawn(pdf), url).toEqual([]);
      expect(await pdfText(pdf)).toContain('Marie Curie, Présidente');
      expect(rectsDrawn(pdf).filter((r) => r.w === 180 && r.h === 64)).toHaveLength(1);
    }
    // Only image names are looked up in the library.
    expect(storage.asked).toEqual(['missing.png', 'broken.png']);
    expect(await imagesDrawn(await renderReceiptPdf(receipt({}, { signatureImage: '/media/signature.png' })))).toEqual([]);
  });

  it('prints the form it describes, in the same order', async () => {
    for (const r of [receipt({ donor: JSON.stringify(COMPANY) }), receipt({ kind: 'annual', status: 'cancelled' }, { legalBase: 'interet_general' })]) {
      expect(await pdfText(await renderReceiptPdf(r))).toBe(formText(receiptForm(r)));
    }
  });
});

describe('receipt file names', () => {
  it('names the file after the receipt number, keeping only letters, digits and dashes', () => {
    expect(receiptFileName({ number: 'RF-2025-000042' })).toBe('recu-fiscal-RF-2025-000042.pdf');
    expect(receiptFileName({ number: 'RF/2025 000042é' })).toBe('recu-fiscal-RF2025000042.pdf');
    expect(receiptFileName({ number: '2025-000001' })).toBe('recu-fiscal-2025-000001.pdf');
  });
});
