import PDFDocument from 'pdfkit';
import { parisYear } from './calendar';
import type { Storage } from '~/lib/storage.server';
import { keyFromUrl } from '~/domain/media/media';
import type { TaxDetails } from './donor-details';
import type { OrganisationSnapshot, Receipt } from './register.server';
import { LEGAL_BASES, RATES, type LegalBase } from './settings';
import { euroCentsInFrench, euroFigures } from './words';
import { dateTimeFormat } from '~/lib/intl';

const frenchDate = (iso: string) => dateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' }).format(new Date(iso));

/** The CGI article that applies: 238 bis for companies, 200 for individuals (978 is for the IFI, not offered here). */
export function articleFor(donor: TaxDetails): string {
  return donor.kind === 'company' ? '238 bis' : '200';
}

/** The lines of the receipt, in order (the PDF prints them; tests read them back from the PDF). */
export function receiptLines(r: Receipt): { title: string; sections: { heading: string; lines: string[] }[] } {
  const org = JSON.parse(r.organisation) as OrganisationSnapshot;
  const donor = JSON.parse(r.donor) as TaxDetails;
  const article = articleFor(donor);
  const bases = (Object.keys(LEGAL_BASES) as LegalBase[]).map((b) => `[${b === org.legalBase ? 'X' : ' '}] ${LEGAL_BASES[b]}`);
  const annual = r.kind === 'annual';
  return {
    title: 'Reçu au titre des dons à certains organismes d’intérêt général',
    sections: [
      {
        heading: 'Références',
        lines: [
          'Modèle conforme au formulaire CERFA n° 11580',
          'Articles 200, 238 bis et 978 du code général des impôts (CGI)',
          `Numéro d’ordre du reçu : ${r.number}`,
          ...(r.status === 'cancelled' ? [`REÇU ANNULÉ le ${frenchDate(r.cancelled_at ?? r.issued_at)} : ${r.cancel_reason ?? ''}`] : []),
        ],
      },
      {
        heading: 'Bénéficiaire des versements',
        lines: [`Nom ou dénomination : ${org.legalName}`, `Adresse : ${org.address}, ${org.postalCode} ${org.city}`, `N° SIREN / RNA : ${org.registration}`, `Objet : ${org.object}`, 'Qualité de l’organisme :', ...bases],
      },
      {
        heading: 'Donateur',
        lines: [
          donor.kind === 'company' ? `Dénomination : ${donor.company} (SIREN ${donor.siren})` : `Nom et prénom : ${donor.name}`,
          ...(donor.kind === 'company' ? [`Représentée par : ${donor.name}`] : []),
          `Adresse : ${donor.address}, ${donor.postalCode} ${donor.city}, ${donor.country}`,
        ],
      },
      {
        heading: 'Versement',
        lines: [
          'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt, la somme de :',
          `${euroFigures(r.amount_cents)}`,
          `Somme en toutes lettres : ${euroCentsInFrench(r.amount_cents)}`,
          annual ? `Dons de l’année ${parisYear(r.paid_at)} (reçu récapitulatif), dernier versement le ${frenchDate(r.paid_at)}` : `Date du versement : ${frenchDate(r.paid_at)}`,
          `Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction d’impôt prévue à l’article ${article} du CGI.`,
          ...(donor.kind === 'company' ? ['Taux de réduction : 60 % (article 238 bis du CGI)'] : [`Taux de réduction : ${RATES[org.rate]}`]),
          'Forme du don : déclaration de don manuel',
          'Nature du don : numéraire',
          `Mode de versement : ${r.method}`,
        ],
      },
      {
        heading: 'Signature',
        lines: [`Date d’émission : ${frenchDate(r.issued_at)}`, `${org.signatoryName}, ${org.signatoryTitle}`],
      },
    ],
  };
}

/**
 * The receipt as a PDF (A4, Helvetica, in French). Everything printed comes from the receipt row,
 * the creation date is its issue date, so the same row always gives the same bytes.
 */
export async function renderReceiptPdf(r: Receipt, storage?: Storage): Promise<Buffer> {
  const org = JSON.parse(r.organisation) as OrganisationSnapshot;
  const issued = new Date(r.issued_at);
  let signature: Buffer | undefined;
  const key = org.signatureImage ? keyFromUrl(org.signatureImage) : undefined;
  if (storage && key && /\.(png|jpe?g)$/i.test(key)) signature = await storage.get(key).catch(() => undefined);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: true,
    info: { Title: `Reçu fiscal ${r.number}`, Author: org.legalName, Subject: 'Reçu au titre des dons (CERFA n° 11580)', Producer: 'Fondation THV', Creator: 'Fondation THV', CreationDate: issued, ModDate: issued },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    // Stryker disable next-line StringLiteral: pdfkit emits no 'error' on a document built in memory; no test can make it fail.
    doc.on('error', reject);
  });
  const { title, sections } = receiptLines(r);
  doc.font('Helvetica-Bold').fontSize(15).text(title, { align: 'center' });
  doc.moveDown(0.8);
  for (const s of sections) {
    doc.font('Helvetica-Bold').fontSize(11).text(s.heading);
    doc.moveDown(0.2);
    doc.font('Helvetica').fontSize(10);
    for (const line of s.lines) doc.text(line);
    doc.moveDown(0.7);
  }
  // Stryker disable next-line ConditionalExpression: without an image doc.image() throws before drawing, caught below: same bytes.
  if (signature) {
    try {
      doc.image(signature, { fit: [160, 60] });
    } catch {
      // An unreadable image leaves the typed signature only.
    }
  }
  doc.end();
  return done;
}

export function receiptFileName(r: Pick<Receipt, 'number'>): string {
  return `recu-fiscal-${r.number.replace(/[^A-Za-z0-9-]/g, '')}.pdf`;
}
