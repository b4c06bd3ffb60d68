import { dateTimeFormat } from '~/lib/intl';
import type { FormDocument, FormImage, FormItem, FormSection } from '~/lib/form-pdf.server';
import type { OrganisationSnapshot, Receipt } from './register.server';
import { LEGAL_BASES, type LegalBase } from './settings';
import { euroCentsInFrench, euroFigures } from './words';

/**
 * What every receipt model prints alike (CERFA n° 11580 and n° 16216, ADR 035): dates in French,
 * the beneficiary's block, the amount in figures and in words, the signature block.
 */
export const frenchDate = (iso: string) => dateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' }).format(new Date(iso));

/** The images a receipt prints, read from media storage. */
export interface ReceiptImages {
  logo?: Buffer;
  signature?: Buffer;
}

export const formImage = (data: Buffer | undefined, alt: string): FormImage | undefined => (data ? { data, alt } : undefined);

/** A cancelled receipt's red notice. */
export const cancelledNotice = (r: Receipt): string | undefined => (r.status === 'cancelled' ? `REÇU ANNULÉ le ${frenchDate(r.cancelled_at ?? r.issued_at)} : ${r.cancel_reason ?? ''}` : undefined);

/** The organisation's fields, as both models print them. */
export function beneficiaryItems(org: OrganisationSnapshot): FormItem[] {
  return [
    { kind: 'field', label: 'Nom ou dénomination', value: org.legalName },
    { kind: 'field', label: 'Adresse', value: `${org.address}, ${org.postalCode} ${org.city}` },
    { kind: 'field', label: 'N° SIREN / RNA', value: org.registration },
    { kind: 'field', label: 'Objet', value: org.object },
    { kind: 'checkboxes', label: 'Qualité de l’organisme :', options: (Object.keys(LEGAL_BASES) as LegalBase[]).map((b) => ({ label: LEGAL_BASES[b], checked: b === org.legalBase })) },
  ];
}

/** The amount in figures and in words, boxed. */
export const amountBoxes = (cents: number): FormItem => ({
  kind: 'boxes',
  boxes: [
    { label: 'Montant en chiffres :', value: euroFigures(cents) },
    { label: 'Somme en toutes lettres :', value: euroCentsInFrench(cents) },
  ],
});

export function signatureSection(r: Receipt, org: OrganisationSnapshot, images: ReceiptImages): FormSection {
  return {
    title: 'Signature',
    items: [{ kind: 'signature', lines: [`Date d’émission : ${frenchDate(r.issued_at)}`, `${org.signatoryName}, ${org.signatoryTitle}`], imageLabel: 'Signature de la personne habilitée', image: formImage(images.signature, `Signature de ${org.signatoryName}`) }],
  };
}

/** A receipt model's words: the PDF's subject, the form's title and the lines under it. */
export interface ReceiptModel {
  subject: string;
  title: string;
  lines: string[];
}

/** The whole receipt of a model: its metadata, the header with the logo and the number, the cancelled notice, its sections and the signature. */
export function receiptDocument(r: Receipt, org: OrganisationSnapshot, images: ReceiptImages, model: ReceiptModel, sections: FormSection[]): FormDocument {
  return {
    meta: { title: `Reçu fiscal ${r.number}`, author: org.legalName, subject: model.subject, creator: 'Fondation THV', lang: 'fr-FR', date: new Date(r.issued_at) },
    header: { logo: formImage(images.logo, `Logo de ${org.legalName}`), title: model.title, lines: model.lines, reference: { label: 'Numéro d’ordre du reçu :', value: r.number } },
    notice: cancelledNotice(r),
    sections: [...sections, signatureSection(r, org, images)],
  };
}
