import { parisYear } from '~/lib/paris';
import type { Storage } from '~/lib/storage.server';
import { renderFormPdf, type FormDocument } from '~/lib/form-pdf.server';
import { pdfImage } from '~/domain/media/pdf-image.server';
import type { TaxDetails } from './donor-details';
import type { OrganisationSnapshot, Receipt } from './register.server';
import { RATES } from './settings';
import { FORM_ON_RECEIPT, NATURE_ON_RECEIPT, isNature } from './nature';
import { REGIME_ARTICLE, storedRegime } from './regimes';
import { companyReceiptForm } from './pdf-company.server';
import { amountBoxes, beneficiaryItems, frenchDate, receiptDocument, type ReceiptImages } from './pdf-parts.server';

export type { ReceiptImages } from './pdf-parts.server';

/** What an IFI receipt states as the relief (article 978 of the CGI). */
export const IFI_RELIEF = '75 % du montant du don, dans la limite de 50 000 € par an (article 978 du CGI)';

/**
 * The receipt as a form, in reading order, by its regime (ADR 035): a company's follows CERFA
 * n° 16216 (pdf-company.server.ts); an individual's, CERFA n° 11580, under article 200 (income
 * tax) or 978 (IFI). Everything comes from the receipt row (its organisation and donor snapshots)
 * and the images it names.
 */
export function receiptForm(r: Receipt, images: ReceiptImages = {}): FormDocument {
  const regime = storedRegime(r.regime);
  if (regime === '238bis') return companyReceiptForm(r, images);
  const org = JSON.parse(r.organisation) as OrganisationSnapshot;
  const donor = JSON.parse(r.donor) as TaxDetails;
  const article = REGIME_ARTICLE[regime];
  const annual = r.kind === 'annual';
  const nature = isNature(r.nature) ? r.nature : 'numeraire';
  const model = {
    subject: 'Reçu au titre des dons (CERFA n° 11580)',
    title: 'Reçu au titre des dons à certains organismes d’intérêt général',
    lines: ['Modèle conforme au formulaire CERFA n° 11580', 'Articles 200, 238 bis et 978 du code général des impôts (CGI)'],
  };
  return receiptDocument(r, org, images, model, [
    { title: 'Bénéficiaire des versements', items: beneficiaryItems(org) },
    {
      title: 'Donateur',
      items: [
        { kind: 'field', label: 'Nom et prénom', value: donor.name },
        { kind: 'field', label: 'Adresse', value: `${donor.address}, ${donor.postalCode} ${donor.city}, ${donor.country}` },
      ],
    },
    {
      title: 'Versement',
      items: [
        { kind: 'text', text: 'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt, la somme de :' },
        amountBoxes(r.amount_cents),
        annual
          ? { kind: 'text', text: `Dons de l’année ${parisYear(r.paid_at)} (reçu récapitulatif), dernier versement le ${frenchDate(r.paid_at)}` }
          : { kind: 'field', label: 'Date du versement', value: frenchDate(r.paid_at) },
        { kind: 'text', text: `Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction d’impôt prévue à l’article ${article} du CGI.` },
        ...(regime === '978' ? [{ kind: 'text' as const, text: 'Don effectué au titre de l’impôt sur la fortune immobilière (IFI) : il ne peut ouvrir droit en outre à la réduction d’impôt sur le revenu.' }] : []),
        { kind: 'field', label: 'Taux de réduction', value: regime === '978' ? IFI_RELIEF : RATES[org.rate] },
        { kind: 'field', label: 'Forme du don', value: FORM_ON_RECEIPT[nature] },
        { kind: 'field', label: 'Nature du don', value: NATURE_ON_RECEIPT[nature] },
        ...(r.nature_description ? [{ kind: 'field' as const, label: 'Description', value: r.nature_description }] : []),
        { kind: 'field', label: 'Mode de versement', value: r.method },
      ],
    },
  ]);
}

/** The logo and signature the receipt names, from media storage (none without storage). */
export async function receiptImages(r: Receipt, storage?: Storage): Promise<ReceiptImages> {
  const org = JSON.parse(r.organisation) as OrganisationSnapshot;
  return { logo: await pdfImage(storage, org.logoUrl), signature: await pdfImage(storage, org.signatureImage) };
}

/**
 * The receipt as a one-page A4 PDF (tagged, in French), gift or annual. Everything printed comes
 * from the receipt row and the media it names; the creation date is its issue date, so the same
 * row always gives the same bytes.
 */
export async function renderReceiptPdf(r: Receipt, storage?: Storage): Promise<Buffer> {
  return renderFormPdf(receiptForm(r, await receiptImages(r, storage)));
}

export function receiptFileName(r: Pick<Receipt, 'number'>): string {
  return `recu-fiscal-${r.number.replace(/[^A-Za-z0-9-]/g, '')}.pdf`;
}
