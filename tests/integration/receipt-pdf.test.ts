import { describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy, getMeta, getResolvedPDFJS } from 'unpdf';
import { receiptFileName, receiptLines, renderReceiptPdf } from '~/domain/receipts/pdf.server';
import type { Receipt } from '~/domain/receipts/register.server';
import type { ReceiptSettings } from '~/domain/receipts/settings';
import type { TaxDetails } from '~/domain/receipts/donor-details';
import type { Storage } from '~/lib/storage.server';
import { DONOR, ORGANISATION } from '../support/receipts';
import { makeJpeg, makePng } from '../support/media-files';

/**
 * The tax receipt as the donor and the tax office read it: rendered from a receipt row (no
 * database needed), read back from the PDF with unpdf.
 */

const COMPANY: TaxDetails = { ...DONOR, kind: 'company', company: 'ACME SAS', siren: '987654321', name: 'Jean Martin' };

function receipt(changes: Partial<Receipt> = {}, org: Partial<ReceiptSettings> = {}): Receipt {
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
    ...changes,
  };
}

async function pdfLines(pdf: Buffer): Promise<string[]> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(doc, { mergePages: true });
  return text.split('\n').map((l) => l.trim());
}

/** The lines printed under a heading, up to the next heading. */
function section(lines: string[], heading: string): string[] {
  const HEADINGS = ['Références', 'Bénéficiaire des versements', 'Donateur', 'Versement', 'Signature'];
  const start = lines.indexOf(heading);
  expect(start, `heading ${heading}`).toBeGreaterThan(0);
  const end = lines.findIndex((l, i) => i > start && HEADINGS.includes(l));
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

const TITLE = 'Reçu au titre des dons à certains organismes d’intérêt général';

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

/** Where each image is drawn on page 1: its width and height in points, its left edge and its lower edge from the top. */
async function imagesDrawn(pdf: Buffer): Promise<{ w: number; h: number; x: number; y: number }[]> {
  const { OPS } = await getResolvedPDFJS();
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const ops = await (await doc.getPage(1)).getOperatorList();
  const drawn: { w: number; h: number; x: number; y: number }[] = [];
  let matrix: number[] = [];
  ops.fnArray.forEach((fn, i) => {
    if (fn === OPS.transform) matrix = ops.argsArray[i] as number[];
    if (fn === OPS.paintImageXObject) drawn.push({ w: matrix[0], h: Math.abs(matrix[3]), x: matrix[4], y: matrix[5] });
  });
  return drawn;
}

describe('the CERFA 11580 receipt PDF', () => {
  it('prints, section by section and in order, everything an individual donor’s receipt must say', async () => {
    const lines = await pdfLines(await renderReceiptPdf(receipt()));
    expect(lines[0]).toBe(TITLE);
    expect(lines.filter((l) => ['Références', 'Bénéficiaire des versements', 'Donateur', 'Versement', 'Signature'].includes(l))).toEqual([
      'Références',
      'Bénéficiaire des versements',
      'Donateur',
      'Versement',
      'Signature',
    ]);
    expect(section(lines, 'Références')).toEqual([
      'Modèle conforme au formulaire CERFA n° 11580',
      'Articles 200, 238 bis et 978 du code général des impôts (CGI)',
      'Numéro d’ordre du reçu : RF-2025-000042',
    ]);
    expect(section(lines, 'Bénéficiaire des versements')).toEqual([
      'Nom ou dénomination : Fondation THV',
      'Adresse : 12 rue de la Paix, 75002 Paris',
      'N° SIREN / RNA : 123456789',
      'Objet : Aide humanitaire et développement en Afrique de l’Ouest',
      'Qualité de l’organisme :',
      '[X] Fondation reconnue d’utilité publique',
      '[ ] Association reconnue d’utilité publique',
      '[ ] Organisme d’intérêt général',
      '[ ] Organisme d’aide gratuite aux personnes en difficulté',
    ]);
    expect(section(lines, 'Donateur')).toEqual(['Nom et prénom : Awa Diallo', 'Adresse : 3 rue des Lilas, 75011 Paris, France']);
    expect(section(lines, 'Versement').join(' ')).toBe(
      [
        'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt, la somme de :',
        '1 234,56 €',
        'Somme en toutes lettres : mille deux cent trente-quatre euros et cinquante-six centimes',
        'Date du versement : 14 mars 2025',
        'Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction d’impôt prévue à l’article 200 du CGI.',
        'Taux de réduction : 66 % (article 200-1 du CGI)',
        'Forme du don : déclaration de don manuel',
        'Nature du don : numéraire',
        'Mode de versement : Carte bancaire',
      ].join(' '),
    );
    // Issued at 00:30 in Paris on 15 March: the date is the Paris one, written out in French.
    expect(section(lines, 'Signature')).toEqual(['Date d’émission : 15 mars 2025', 'Marie Curie, Présidente']);
    expect(lines.join('\n')).not.toContain('ANNULÉ');
  });

  it('ticks only the organisation’s legal basis and prints the 75 % rate of aid to people in difficulty', async () => {
    const lines = await pdfLines(await renderReceiptPdf(receipt({}, { legalBase: 'aide_personnes', rate: '75' })));
    const basis = section(lines, 'Bénéficiaire des versements').filter((l) => l.startsWith('['));
    expect(basis).toEqual([
      '[ ] Fondation reconnue d’utilité publique',
      '[ ] Association reconnue d’utilité publique',
      '[ ] Organisme d’intérêt général',
      '[X] Organisme d’aide gratuite aux personnes en difficulté',
    ]);
    expect(lines).toContain('Taux de réduction : 75 % (aide aux personnes en difficulté, article 200-1 ter du CGI)');
  });

  it('makes out a company’s receipt to the company, its SIREN and its representative, under article 238 bis at 60 %', async () => {
    const lines = await pdfLines(await renderReceiptPdf(receipt({ donor: JSON.stringify(COMPANY), amount_cents: 50_000, method: 'PayPal' }, { rate: '75' })));
    expect(section(lines, 'Donateur')).toEqual(['Dénomination : ACME SAS (SIREN 987654321)', 'Représentée par : Jean Martin', 'Adresse : 3 rue des Lilas, 75011 Paris, France']);
    const payment = section(lines, 'Versement').join(' ');
    expect(payment).toContain('500,00 €');
    expect(payment).toContain('Somme en toutes lettres : cinq cents euros');
    expect(payment).toContain('la réduction d’impôt prévue à l’article 238 bis du CGI.');
    // A company's rate is 60 % whatever rate the organisation gives individuals.
    expect(section(lines, 'Versement')).toContain('Taux de réduction : 60 % (article 238 bis du CGI)');
    expect(payment).not.toContain('Taux de réduction : 75');
    expect(section(lines, 'Versement')).toContain('Mode de versement : PayPal');
  });

  it('prints an annual receipt as the year’s summary, with the date of the last gift', async () => {
    const lines = await pdfLines(await renderReceiptPdf(receipt({ kind: 'annual', donation_id: null, amount_cents: 4250, paid_at: '2024-12-31T23:30:00.000Z', issued_at: '2025-01-02T09:00:00.000Z' })));
    const payment = section(lines, 'Versement').join(' ');
    // 23:30 UTC on 31 December 2024 is already 1 January 2025 in Paris.
    expect(payment).toContain('Dons de l’année 2025 (reçu récapitulatif), dernier versement le 1 janvier 2025');
    expect(payment).not.toContain('Date du versement');
    expect(payment).toContain('Somme en toutes lettres : quarante-deux euros et cinquante centimes');
    expect(section(lines, 'Signature')[0]).toBe('Date d’émission : 2 janvier 2025');
  });

  it('marks a cancelled receipt “REÇU ANNULÉ” with the date and reason of the cancellation', async () => {
    const lines = await pdfLines(await renderReceiptPdf(receipt({ status: 'cancelled', cancelled_at: '2025-04-02T08:00:00.000Z', cancel_reason: 'Don remboursé' })));
    expect(section(lines, 'Références')).toEqual([
      'Modèle conforme au formulaire CERFA n° 11580',
      'Articles 200, 238 bis et 978 du code général des impôts (CGI)',
      'Numéro d’ordre du reçu : RF-2025-000042',
      'REÇU ANNULÉ le 2 avril 2025 : Don remboursé',
    ]);
    // The issue date stays what it was.
    expect(section(lines, 'Signature')[0]).toBe('Date d’émission : 15 mars 2025');
  });

  it('dates a cancellation recorded without date or reason from the issue, and prints no made-up reason', async () => {
    const lines = await pdfLines(await renderReceiptPdf(receipt({ status: 'cancelled' })));
    expect(section(lines, 'Références').at(-1)).toBe('REÇU ANNULÉ le 15 mars 2025 :');
  });

  it('is one A4 page with the receipt’s title, organisation and issue date in its metadata', async () => {
    const pdf = await renderReceiptPdf(receipt());
    const doc = await getDocumentProxy(new Uint8Array(pdf));
    expect(doc.numPages).toBe(1);
    const [, , width, height] = (await doc.getPage(1)).view;
    expect(width).toBeCloseTo(595.28, 1);
    expect(height).toBeCloseTo(841.89, 1);
    const { info } = await getMeta(new Uint8Array(pdf));
    expect(info).toMatchObject({
      Title: 'Reçu fiscal RF-2025-000042',
      Author: 'Fondation THV',
      Subject: 'Reçu au titre des dons (CERFA n° 11580)',
      Producer: 'Fondation THV',
      Creator: 'Fondation THV',
      CreationDate: 'D:20250314233000Z',
      ModDate: 'D:20250314233000Z',
    });
  });

  it('gives the same, compressed bytes on every render (its dates are the issue date, not the time of rendering)', async () => {
    const pdf = await renderReceiptPdf(receipt());
    expect(Buffer.compare(await renderReceiptPdf(receipt()), pdf)).toBe(0);
    // The page's content stream is deflated (a receipt is a few kilobytes, mailed as is).
    expect(pdf.toString('latin1')).toMatch(/\/Filter \/FlateDecode/);
    expect(pdf.length).toBeLessThan(8000);
  });

  it('centres the title and sets the headings apart from their lines and from the previous section', async () => {
    const doc = await getDocumentProxy(new Uint8Array(await renderReceiptPdf(receipt())));
    const items = ((await (await doc.getPage(1)).getTextContent()).items as { str: string; width: number; transform: number[] }[]).filter((i) => i.str);
    const at = (str: string) => items.find((i) => i.str === str)!;
    const title = at(TITLE);
    const left = title.transform[4] - 50;
    const right = 595.28 - 50 - (title.transform[4] + title.width);
    expect(left).toBeGreaterThan(10);
    expect(Math.abs(left - right)).toBeLessThan(1);
    const y = (str: string) => at(str).transform[5];
    const lineGap = y('Nom ou dénomination : Fondation THV') - y('Adresse : 12 rue de la Paix, 75002 Paris');
    // Title, then a blank before the first heading.
    expect(y(TITLE) - y('Références')).toBeGreaterThan(25);
    // A little space under each heading, more than between two lines of text.
    expect(y('Donateur') - y('Nom et prénom : Awa Diallo')).toBeGreaterThan(14);
    expect(y('Signature') - y('Date d’émission : 15 mars 2025')).toBeGreaterThan(14);
    // A blank between sections.
    expect(y('Mode de versement : Carte bancaire') - y('Signature')).toBeGreaterThan(lineGap + 7);
  });

  it('prints the PNG or JPEG signature from the media library, fitted in 160 × 60 under the signatory', async () => {
    const png = await makePng(300, 100);
    const storage = memoryStorage({ 'signature.png': png, 'signature.JPG': await makeJpeg(200, 200) });
    const withPng = await renderReceiptPdf(receipt({}, { signatureImage: '/media/signature.png' }), storage);
    const [image] = await imagesDrawn(withPng);
    // 300 × 100 fitted in 160 × 60 keeps its proportions: 160 × 53.3, at the left margin.
    expect(image.w).toBeCloseTo(160, 1);
    expect(image.h).toBeCloseTo(53.33, 1);
    expect(image.x).toBeCloseTo(50, 1);
    // pdfkit draws from the top of the page: the image's lower edge, 566.6 pt down, is under the signatory's line.
    expect(image.y).toBeCloseTo(566.58, 1);
    expect(Buffer.compare(await renderReceiptPdf(receipt({}, { signatureImage: '/media/signature.png' }), storage), withPng)).toBe(0);
    const withJpeg = await imagesDrawn(await renderReceiptPdf(receipt({}, { signatureImage: '/media/signature.JPG' }), storage));
    expect(withJpeg).toHaveLength(1);
    expect(withJpeg[0].w).toBeCloseTo(60, 1);
    expect(withJpeg[0].h).toBeCloseTo(60, 1);
  });

  it('prints no signature image that is not a .png/.jpg/.jpeg file, is missing or unreadable, and still prints the signatory', async () => {
    const png = await makePng(300, 100);
    const storage = memoryStorage({ 'signature.png.bak': png, 'broken.png': Buffer.from('not an image'), 'signature.gif': png });
    for (const url of ['/media/signature.png.bak', '/media/signature.gif', '/media/missing.png', '/media/broken.png', 'https://elsewhere.example/signature.png']) {
      const pdf = await renderReceiptPdf(receipt({}, { signatureImage: url }), storage);
      expect(await imagesDrawn(pdf), url).toEqual([]);
      expect(await pdfLines(pdf)).toContain('Marie Curie, Présidente');
    }
    // Only image names are looked up in the library.
    expect(storage.asked).toEqual(['missing.png', 'broken.png']);
    expect(await imagesDrawn(await renderReceiptPdf(receipt({}, { signatureImage: '/media/signature.png' })))).toEqual([]);
  });

  it('prints the lines it lists, in the same order', async () => {
    const r = receipt({ donor: JSON.stringify(COMPANY) });
    const { title, sections } = receiptLines(r);
    const printed = (await pdfLines(await renderReceiptPdf(r))).join(' ');
    const listed = [title, ...sections.flatMap((s) => [s.heading, ...s.lines])].join(' ');
    expect(printed).toBe(listed);
  });
});

describe('receipt file names', () => {
  it('names the file after the receipt number, keeping only letters, digits and dashes', () => {
    expect(receiptFileName({ number: 'RF-2025-000042' })).toBe('recu-fiscal-RF-2025-000042.pdf');
    expect(receiptFileName({ number: 'RF/2025 000042é' })).toBe('recu-fiscal-RF2025000042.pdf');
    expect(receiptFileName({ number: '2025-000001' })).toBe('recu-fiscal-2025-000001.pdf');
  });
});
