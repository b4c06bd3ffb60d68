/**
 * The form of a gift not in money (ADR 030): goods given ("en nature": what, their value in euros
 * and its basis — an invoice, the market value, another basis said in words) or a volunteer's
 * waived expenses ("abandon de frais": what, the amount from the invoices or the car's mileage
 * scale, and the volunteer's written waiver of reimbursement, required). French messages per
 * field; the evidence file is checked on the server by its content (nature.server.ts). Shared
 * with the browser: no server imports.
 */
import { z } from 'zod';
import { MAX_KM, mileageCents } from './mileage';
import { checkbox, day, donorShape, euros, required, text, uuid } from './forms';

export const NATURE_MEANS = ['in_kind', 'waived_expenses'] as const;
export type NatureMeans = (typeof NATURE_MEANS)[number];

/** How a gift in kind was valued. */
export const GOODS_BASES = { invoice: 'Facture', market: 'Valeur de marché (prix de vente constaté)', other: 'Autre (préciser)' } as const;
/** How waived expenses were valued. */
export const EXPENSE_BASES = { invoices: 'Factures et justificatifs de frais', mileage: 'Barème kilométrique (voiture du bénévole)' } as const;
export type ValuationBasis = keyof typeof GOODS_BASES | keyof typeof EXPENSE_BASES;

const BASES: Record<NatureMeans, readonly string[]> = { in_kind: Object.keys(GOODS_BASES), waived_expenses: Object.keys(EXPENSE_BASES) };

/** A whole number typed in a field ('' when empty), within bounds. */
const whole = (min: number, max: number, message: string) =>
  z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || (/^\d{1,6}$/.test(v) && Number(v) >= min && Number(v) <= max), message);

/** Valued on the car's mileage scale: waived expenses only. */
const onScale = (v: { means: NatureMeans; basis: string }) => v.means === 'waived_expenses' && v.basis === 'mileage';

export function natureGiftSchema(today: string) {
  return z
    .object({
      intent: z.literal('nature'),
      token: uuid('Formulaire périmé : rechargez la page.'),
      means: z.enum(NATURE_MEANS, { message: 'Choisissez : don en nature ou abandon de frais.' }),
      description: required(300, 'Décrivez ce qui est donné.'),
      basis: z.string({ message: 'Choisissez la base de l’évaluation.' }).trim().default(''),
      basis_detail: text(300),
      amount: z.string().trim().default(''),
      km: whole(1, MAX_KM, `Un nombre de kilomètres entier, de 1 à ${MAX_KM}.`),
      horsepower: whole(1, 99, 'La puissance fiscale en CV (carte grise, case P.6), de 1 à 99.'),
      electric: checkbox.default(false),
      waiver: checkbox.default(false),
      received_on: day(today, 'La date du don'),
      ...donorShape,
      note: text(300),
    })
    .superRefine((v, ctx) => {
      const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (!BASES[v.means].includes(v.basis)) issue('basis', 'Choisissez la base de l’évaluation.');
      if (v.basis === 'other' && !v.basis_detail) issue('basis_detail', 'Précisez sur quoi repose l’évaluation.');
      if (onScale(v)) {
        if (!v.km) issue('km', 'Le nombre de kilomètres parcourus pour la fondation est obligatoire.');
        if (!v.horsepower) issue('horsepower', 'La puissance fiscale de la voiture est obligatoire.');
      } else if (!euros.safeParse(v.amount).success) {
        issue('amount', 'Un montant en euros supérieur à 0, 100 000 € au plus (ex. 50 ou 50,00).');
      }
      if (v.means === 'waived_expenses') {
        if (!v.waiver) issue('waiver', 'Le bénévole doit avoir renoncé par écrit au remboursement : cochez la case une fois sa renonciation reçue.');
        if (v.company) issue('company', 'Un abandon de frais est le don d’un bénévole, une personne (article 200 du CGI) : pas d’entreprise.');
      }
    })
    .transform((v) => {
      const mileage = onScale(v);
      const cents = mileage ? mileageCents(Number(v.km), Number(v.horsepower), v.electric) : euros.parse(v.amount);
      return { ...v, basis: v.basis as ValuationBasis, amountCents: cents, km: mileage ? Number(v.km) : null, horsepower: mileage ? Number(v.horsepower) : null, electric: mileage && v.electric };
    });
}
export type NatureEntry = z.output<ReturnType<typeof natureGiftSchema>>;

/** What the receipt prints as the description: what was given, and for the mileage scale the journeys' distance and car. */
export function receiptDescription(v: Pick<NatureEntry, 'description' | 'km' | 'horsepower' | 'electric'>): string {
  if (v.km === null || v.horsepower === null) return v.description;
  return `${v.description} (${v.km} km, voiture de ${v.horsepower} CV${v.electric ? ' électrique' : ''}, barème kilométrique)`;
}

/** The basis's words, as the gift's row and the screen show it. */
export function basisLabel(basis: string): string {
  return (GOODS_BASES as Record<string, string>)[basis] ?? (EXPENSE_BASES as Record<string, string>)[basis] ?? basis;
}
