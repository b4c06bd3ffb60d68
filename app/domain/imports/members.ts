/**
 * One data line of a memberships export read as a member and their dues (ADR 036), or refused with
 * its number and a French sentence. Pure: the dry run and the import read every line through it.
 */
import { createHash } from 'node:crypto';
import type { Means } from '~/domain/means/means';
import { fold, parseAmount, parseDate, parseMeans, parseStatus, type Field } from './fields';
import { EMAIL, LANGS, quote } from './lines';

export interface MemberLine {
  line: number;
  /** The membership's reference in its source: the order's, with the member's name (an order may hold several members). */
  ref: string;
  /** When the dues were paid (ISO). */
  at: string;
  amountCents: number;
  /** The type as the file names it ('' when it names none). */
  typeName: string;
  email: string;
  firstName: string;
  lastName: string;
  address: string;
  postalCode: string;
  city: string;
  country: string;
  language: 'fr' | 'en' | 'es';
  means: Means;
}

export type InterpretedMember = { ok: true; member: MemberLine } | { ok: false; line: number; reason: string };

export function interpretMemberLine(line: number, cells: readonly string[], index: Partial<Record<Field, number>>, defaultMeans: Means): InterpretedMember {
  const cell = (f: Field) => (index[f] === undefined ? '' : (cells[index[f]!] ?? '').trim());
  const refuse = (reason: string): InterpretedMember => ({ ok: false, line, reason });
  const dateText = cell('date');
  if (!dateText) return refuse('la date de l’adhésion est vide.');
  const at = parseDate(dateText);
  if (!at) return refuse(`la date ${quote(dateText)} est impossible (attendu JJ/MM/AAAA ou AAAA-MM-JJ).`);
  const amountText = cell('amount');
  const amountCents = !amountText || fold(amountText) === 'gratuit' ? 0 : parseAmount(amountText);
  if (amountCents === undefined || amountCents < 0) return refuse(`le montant ${quote(amountText)} n’est pas un montant (attendu par exemple 20,00).`);
  const statusText = cell('status');
  if (index.status !== undefined) {
    const status = parseStatus(statusText);
    if (!status) return refuse(`le statut ${quote(statusText)} est inconnu (attendu par exemple Validé, Remboursé, Refusé).`);
    if (status !== 'succeeded') return refuse(`l’adhésion n’est pas payée (statut ${quote(statusText)}) : aucun membre n’est inscrit.`);
  }
  const [firstName, lastName] = [cell('firstName'), cell('lastName') || cell('name')];
  if (!lastName && !firstName) return refuse('le nom de l’adhérent est vide.');
  const email = cell('email').toLowerCase();
  if (email && !EMAIL.test(email)) return refuse(`l’adresse e-mail ${quote(email)} n’est pas valable.`);
  const typeName = cell('membershipType');
  const who = fold(`${lastName} ${firstName}`);
  const explicitRef = cell('ref');
  if (index.ref !== undefined && !explicitRef) return refuse('la référence de la commande est vide.');
  const ref = explicitRef ? `${explicitRef}:${who}` : `ligne:${createHash('sha256').update([at, email, who, fold(typeName)].join('|')).digest('hex').slice(0, 24)}`;
  return {
    ok: true,
    member: {
      line,
      ref,
      at,
      amountCents,
      typeName,
      email,
      firstName,
      lastName,
      address: [cell('address'), cell('address2')].filter(Boolean).join(', '),
      postalCode: cell('postalCode'),
      city: cell('city'),
      country: cell('country'),
      language: LANGS[cell('language').toLowerCase()] ?? 'fr',
      means: parseMeans(cell('means')) ?? defaultMeans,
    },
  };
}

/** The type of a line: the one the file names (by its French name, folded), else the type chosen for the file; undefined with the sentence to show. */
export function typeOfLine(m: Pick<MemberLine, 'typeName'>, types: ReadonlyMap<string, string>, defaultTypeId: string | null | undefined): { id: string } | { reason: string } {
  const named = m.typeName ? types.get(fold(m.typeName)) : undefined;
  if (named) return { id: named };
  if (defaultTypeId) return { id: defaultTypeId };
  return m.typeName
    ? { reason: `le type d’adhésion ${quote(m.typeName)} n’existe pas ici : créez-le (Adhésions › Paramètres) ou choisissez le type à donner à ces lignes.` }
    : { reason: 'le type d’adhésion est vide : choisissez le type à donner à ces lignes.' };
}
