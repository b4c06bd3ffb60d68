import { parisYear } from '~/lib/paris';
import type { FormDocument, FormItem } from '~/lib/form-pdf.server';
import type { TaxDetails } from './donor-details';
import { isNature, type Nature } from './nature';
import { amountBoxes, beneficiaryItems, frenchDate, receiptDocument, type ReceiptImages } from './pdf-parts.server';
import type { OrganisationSnapshot, Receipt } from './register.server';

/**
 * A company's receipt (article 238 bis of the CGI), following CERFA n° 16216 (2041-MEC-SD), the
 * model companies must hold since 2022 (ADR 035): the beneficiary, the donor company with its
 * SIREN, the amount in figures and in words, the date (or the year of an annual receipt), the
 * form, nature and mode of payment as the model's check boxes, the 238 bis certification. Same
 * numbering series as every other receipt.
 */

/** "Forme du don": the model's four boxes; a hand gift is a "déclaration de don manuel", waived expenses "autres". */
const FORMS = ['Acte authentique', 'Acte sous seing privé', 'Déclaration de don manuel', 'Autres'] as const;
const FORM_OF: Record<Nature, (typeof FORMS)[number]> = { numeraire: 'Déclaration de don manuel', nature: 'Déclaration de don manuel', abandon_frais: 'Autres' };

/** "Nature du don": money, listed shares (never received here), anything else. */
const NATURES = ['Numéraire', 'Titres de sociétés cotés', 'Autres (don en nature)'] as const;
const NATURE_OF: Record<Nature, (typeof NATURES)[number]> = { numeraire: 'Numéraire', nature: 'Autres (don en nature)', abandon_frais: 'Autres (don en nature)' };

/** "En cas de don en numéraire, mode de versement": cash, cheque, or any transfer, debit or card (every online means). */
export const PAYMENT_BOXES = ['Remise d’espèces', 'Chèque', 'Virement, prélèvement, carte bancaire'] as const;

/** The boxes a receipt's means tick (an annual receipt lists every means of its gifts, comma-separated). */
export function paymentBoxes(method: string): Set<(typeof PAYMENT_BOXES)[number]> {
  const ticked = new Set<(typeof PAYMENT_BOXES)[number]>();
  for (const m of method.split(', ')) ticked.add(m === 'Espèces' ? 'Remise d’espèces' : m === 'Chèque' ? 'Chèque' : 'Virement, prélèvement, carte bancaire');
  return ticked;
}

const boxes = (label: string, all: readonly string[], checked: (o: string) => boolean): FormItem => ({ kind: 'checkboxes', label, options: all.map((o) => ({ label: o, checked: checked(o) })) });

export function companyReceiptForm(r: Receipt, images: ReceiptImages = {}): FormDocument {
  const org = JSON.parse(r.organisation) as OrganisationSnapshot;
  const donor = JSON.parse(r.donor) as TaxDetails;
  const nature = isNature(r.nature) ? r.nature : 'numeraire';
  const paid = paymentBoxes(r.method);
  const model = {
    subject: 'Reçu des dons et versements effectués par les entreprises (CERFA n° 16216)',
    title: 'Reçu des dons et versements effectués par les entreprises',
    lines: ['au titre de l’article 238 bis du code général des impôts', 'Modèle conforme au formulaire CERFA n° 16216 (2041-MEC-SD)'],
  };
  return receiptDocument(r, org, images, model, [
    { title: 'Organisme bénéficiaire des dons et versements', items: beneficiaryItems(org) },
    {
      title: 'Entreprise donatrice',
      items: [
        { kind: 'field', label: 'Dénomination', value: donor.company },
        // Details stored before the form asked for it have none: the line stays, blank, to be filled by hand.
        { kind: 'field', label: 'Forme juridique', value: donor.legalForm ?? '' },
        { kind: 'field', label: 'N° SIREN', value: donor.siren },
        { kind: 'field', label: 'Adresse', value: `${donor.address}, ${donor.postalCode} ${donor.city}, ${donor.country}` },
        { kind: 'field', label: 'Représentée par', value: donor.name },
      ],
    },
    {
      title: 'Dons et versements',
      items: [
        { kind: 'text', text: 'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt, la somme ou la valeur de :' },
        amountBoxes(r.amount_cents),
        r.kind === 'annual'
          ? { kind: 'field', label: 'Période des versements', value: `année ${parisYear(r.paid_at)} (reçu récapitulatif), dernier versement le ${frenchDate(r.paid_at)}` }
          : { kind: 'field', label: 'Date du versement ou du don', value: frenchDate(r.paid_at) },
        { kind: 'text', text: 'Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction d’impôt prévue à l’article 238 bis du code général des impôts.' },
        boxes('Forme du don :', FORMS, (o) => o === FORM_OF[nature]),
        boxes('Nature du don :', NATURES, (o) => o === NATURE_OF[nature]),
        ...(r.nature_description ? [{ kind: 'field' as const, label: 'Description', value: r.nature_description }] : []),
        boxes('En cas de don en numéraire, mode de versement du don :', PAYMENT_BOXES, (o) => nature === 'numeraire' && paid.has(o as (typeof PAYMENT_BOXES)[number])),
        { kind: 'text', text: 'Réduction d’impôt de 60 % du montant (40 % pour la fraction supérieure à 2 millions d’euros), dans la limite de 20 000 € ou de 5 ‰ du chiffre d’affaires (article 238 bis du CGI).' },
      ],
    },
  ]);
}
