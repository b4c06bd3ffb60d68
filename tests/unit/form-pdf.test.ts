import { describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { formText, renderFormPdf, type FormDocument } from '~/lib/form-pdf.server';
import { makePng } from '../support/media-files';
import { imagesDrawn } from '../support/pdf';

/**
 * The official-form layout as another document uses it (here a member card, the next one to come):
 * what it describes is what the PDF prints, in order, on one tagged A4 page.
 */

async function card(changes: Partial<FormDocument> = {}): Promise<FormDocument> {
  return {
    meta: { title: 'Carte de membre M-2026-0007', author: 'Fondation THV', subject: 'Carte de membre', creator: 'Fondation THV', lang: 'fr-FR', date: new Date('2026-02-01T10:00:00.000Z') },
    header: { logo: { data: await makePng(120, 120), alt: 'Logo de Fondation THV' }, title: 'Carte de membre', lines: ['Année 2026'], reference: { label: 'Numéro de membre :', value: 'M-2026-0007' } },
    sections: [
      { title: 'Membre', items: [{ kind: 'field', label: 'Nom et prénom', value: 'Awa Diallo' }, { kind: 'text', text: 'Membre depuis le 1 février 2026.' }] },
      {
        title: 'Adhésion',
        items: [
          { kind: 'checkboxes', label: 'Catégorie :', options: [{ label: 'Membre actif', checked: false }, { label: 'Membre bienfaiteur', checked: true }] },
          { kind: 'boxes', boxes: [{ label: 'Cotisation :', value: '50,00 €' }] },
        ],
      },
      { title: 'Signature', items: [{ kind: 'signature', lines: ['Marie Curie, Présidente'], imageLabel: 'Signature' }] },
    ],
    ...changes,
  };
}

async function read(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(doc, { mergePages: true });
  return { pages: doc.numPages, text: text.replace(/\s+/g, ' ').trim() };
}

describe('official-form PDFs', () => {
  it('prints what the form describes, in reading order, on one page, the same bytes every time', async () => {
    const form = await card();
    const pdf = await renderFormPdf(form);
    const { pages, text } = await read(pdf);
    expect(pages).toBe(1);
    expect(text).toBe(
      'Carte de membre Année 2026 Numéro de membre : M-2026-0007 Membre Nom et prénom : Awa Diallo Membre depuis le 1 février 2026. Adhésion Catégorie : Membre actif X Membre bienfaiteur Cotisation : 50,00 € Signature Marie Curie, Présidente Signature',
    );
    expect(text).toBe(formText(form));
    expect(await imagesDrawn(pdf)).toHaveLength(1);
    expect(Buffer.compare(await renderFormPdf(await card()), pdf)).toBe(0);
  });

  it('prints a notice under the header, and no image without a logo', async () => {
    const form = await card({ notice: 'CARTE ANNULÉE' });
    form.header.logo = undefined;
    const pdf = await renderFormPdf(form);
    expect((await read(pdf)).text).toContain('M-2026-0007 CARTE ANNULÉE Membre');
    expect(await imagesDrawn(pdf)).toEqual([]);
  });

  it('shrinks the sections’ text until a long form fits on its one page', async () => {
    const base = await card();
    const long = 'Un texte assez long pour occuper plusieurs lignes de la page, répété. '.repeat(12);
    const form: FormDocument = { ...base, sections: [...base.sections, ...Array.from({ length: 3 }, (_, i) => ({ title: `Annexe ${i + 1}`, items: [{ kind: 'text' as const, text: long }] }))] };
    const { pages, text } = await read(await renderFormPdf(form));
    expect(pages).toBe(1);
    expect(text).toBe(formText(form));
    const doc = await getDocumentProxy(new Uint8Array(await renderFormPdf(form)));
    const items = (await (await doc.getPage(1)).getTextContent()).items as { str: string; height: number }[];
    const shortForm = await getDocumentProxy(new Uint8Array(await renderFormPdf(base)));
    const normal = ((await (await shortForm.getPage(1)).getTextContent()).items as { str: string; height: number }[]).find((i) => i.str.startsWith('Membre depuis'))!;
    expect(items.find((i) => i.str.startsWith('Membre depuis'))!.height).toBeLessThan(normal.height);
  });
});
