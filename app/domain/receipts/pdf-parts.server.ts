import { dateTimeFormat } from '~/lib/intl';
import type { FormImage, FormItem, FormSection } from '~/lib/form-pdf.server';
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
