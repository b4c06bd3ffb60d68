import { parisYear } from '~/lib/paris';
import type { Storage } from '~/lib/storage.server';
import { renderFormPdf, type FormDocument, type FormImage } from '~/lib/form-pdf.server';
import { pdfImage } from '~/domain/media/pdf-image.server';
import type { TaxDetails } from './donor-details';
import type { OrganisationSnapshot, Receipt } from './register.server';
import { LEGAL_BASES, RATES, type LegalBase } from './settings';
import { euroCentsInFrench, euroFigures } from './words';
import { FORM_ON_RECEIPT, NATURE_ON_RECEIPT, isNature } from './nature';
import { dateTimeFormat } from '~/lib/intl';

const frenchDate = (iso: string) => dateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' }).format(new Date(iso));

/** The CGI article that applies: 238 bis for companies, 200 for individuals (978 is for the IFI, not offered here). */
export function articleFor(donor: TaxDetails): string {
  return donor.kind === 'company' ? '238 bis' : '200';
}

/** The images a receipt prints, read from media storage. */
export interface ReceiptImages {
  logo?: Buffer;
  signature?: Buffer;
}

/**
 * The receipt as a form (CERFA n° 11580 layout): what the PDF draws, in reading order. Everything
 * comes from the receipt row (its organisation and donor snapshots) and the images it names.
 */
export function receiptForm(r: Receipt, images: ReceiptImages = {}): FormDocument {
  const org = JSON.parse(r.organisation) as OrganisationSnapshot;
  const donor = JSON.parse(r.donor) as TaxDetails;
  const article = articleFor(donor);
  const annual = r.kind === 'annual';
  const nature = isNature(r.nature) ? r.nature : 'numeraire';
  const image = (data: Buffer | undefined, alt: string): FormImage | undefined => (data ? { data, alt } : undefined);
  return {
    meta: { title: `Reçu fiscal ${r.number}`, author: org.legalName, subject: 'Reçu au titre des dons (CERFA n° 11580)', creator: 'Fondation THV', lang: 'fr-FR', date: new Date(r.issued_at) },
    header: {
      logo: image(images.logo, `Logo de ${org.legalName}`),
      title: 'Reçu au titre des dons à certains organismes d’intérêt général',
      lines: ['Modèle conforme au formulaire CERFA n° 11580', 'Articles 200, 238 bis et 978 du code général des impôts (CGI)'],
      reference: { label: 'Numéro d’ordre du reçu :', value: r.number },
    },
    notice: r.status === 'cancelled' ? `REÇU ANNULÉ le ${frenchDate(r.cancelled_at ?? r.issued_at)} : ${r.cancel_reason ?? ''}` : undefined,
    sections: [
      {
        title: 'Bénéficiaire des versements',
        items: [
          { kind: 'field', label: 'Nom ou dénomination', value: org.legalName },
          { kind: 'field', label: 'Adresse', value: `${org.address}, ${org.postalCode} ${org.city}` },
          { kind: 'field', label: 'N° SIREN / RNA', value: org.registration },
          { kind: 'field', label: 'Objet', value: org.object },
          { kind: 'checkboxes', label: 'Qualité de l’organisme :', options: (Object.keys(LEGAL_BASES) as LegalBase[]).map((b) => ({ label: LEGAL_BASES[b], checked: b === org.legalBase })) },
        ],
      },
      {
        title: 'Donateur',
        items: [
          donor.kind === 'company' ? { kind: 'field', label: 'Dénomination', value: `${donor.company} (SIREN ${donor.siren})` } : { kind: 'field', label: 'Nom et prénom', value: donor.name },
          ...(donor.kind === 'company' ? [{ kind: 'field' as const, label: 'Représentée par', value: donor.name }] : []),
          { kind: 'field', label: 'Adresse', value: `${donor.address}, ${donor.postalCode} ${donor.city}, ${donor.country}` },
        ],
      },
      {
        title: 'Versement',
        items: [
          { kind: 'text', text: 'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt, la somme de :' },
          {
            kind: 'boxes',
            boxes: [
              { label: 'Montant en chiffres :', value: euroFigures(r.amount_cents) },
              { label: 'Somme en toutes lettres :', value: euroCentsInFrench(r.amount_cents) },
            ],
          },
          annual
            ? { kind: 'text', text: `Dons de l’année ${parisYear(r.paid_at)} (reçu récapitulatif), dernier versement le ${frenchDate(r.paid_at)}` }
            : { kind: 'field', label: 'Date du versement', value: frenchDate(r.paid_at) },
          { kind: 'text', text: `Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction d’impôt prévue à l’article ${article} du CGI.` },
          { kind: 'field', label: 'Taux de réduction', value: donor.kind === 'company' ? '60 % (article 238 bis du CGI)' : RATES[org.rate] },
          { kind: 'field', label: 'Forme du don', value: FORM_ON_RECEIPT[nature] },
          { kind: 'field', label: 'Nature du don', value: NATURE_ON_RECEIPT[nature] },
          ...(r.nature_description ? [{ kind: 'field' as const, label: 'Description', value: r.nature_description }] : []),
          { kind: 'field', label: 'Mode de versement', value: r.method },
        ],
      },
      {
        title: 'Signature',
        items: [{ kind: 'signature', lines: [`Date d’émission : ${frenchDate(r.issued_at)}`, `${org.signatoryName}, ${org.signatoryTitle}`], imageLabel: 'Signature de la personne habilitée', image: image(images.signature, `Signature de ${org.signatoryName}`) }],
      },
    ],
  };
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
