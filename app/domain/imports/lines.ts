/**
 * One data line of an imported file read as a gift (ADR 036), or refused with its number and a
 * French sentence. Pure: the dry run and the import read every line through this one function.
 */
import { createHash } from 'node:crypto';
import type { Means } from '~/domain/means/means';
import type { TaxDetails } from '~/domain/receipts/donor-details';
import { parseAmount, parseDate, parseMeans, parseStatus, type Field, type ImportedStatus } from './fields';

export interface ImportedLine {
  line: number;
  /** The gift's reference in its source (the file's own, or one made from the line when the file has none). */
  ref: string;
  at: string;
  amountCents: number;
  status: ImportedStatus;
  means: Means;
  email: string | null;
  /** As a donor's name is shown: first and last name, or the organisation's. */
  name: string;
  /** The donor's identity and address, kept as a receipt would print them (never used to issue one). */
  details: TaxDetails;
  campaign: string;
  receiptNumber: string | null;
  language: 'fr' | 'en' | 'es';
  /** When the donor agreed to receive news, as the file says (the proof); null: no consent. */
  consentAt: string | null;
}

export type Interpreted = { ok: true; gift: ImportedLine } | { ok: false; line: number; reason: string };

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const LANGS: Record<string, 'fr' | 'en' | 'es'> = { fr: 'fr', francais: 'fr', français: 'fr', en: 'en', anglais: 'en', english: 'en', es: 'es', espagnol: 'es', español: 'es', spanish: 'es' };

export const quote = (s: string) => `« ${s.length > 40 ? `${s.slice(0, 40)}…` : s} »`;

/** Reads one line with the mapped columns' indexes; `defaultMeans` when the file names none we know. */
export function interpretLine(line: number, cells: readonly string[], index: Partial<Record<Field, number>>, defaultMeans: Means): Interpreted {
  const cell = (f: Field) => (index[f] === undefined ? '' : (cells[index[f]!] ?? '').trim());
  const refuse = (reason: string): Interpreted => ({ ok: false, line, reason });

  const dateText = cell('date');
  if (!dateText) return refuse('la date du don est vide.');
  const at = parseDate(dateText);
  if (!at) return refuse(`la date ${quote(dateText)} est impossible (attendu JJ/MM/AAAA ou AAAA-MM-JJ).`);
  const amountText = cell('amount');
  if (!amountText) return refuse('le montant est vide.');
  const amountCents = parseAmount(amountText);
  if (amountCents === undefined) return refuse(`le montant ${quote(amountText)} n’est pas un montant (attendu par exemple 85,00).`);
  if (amountCents <= 0) return refuse(`le montant ${quote(amountText)} doit être supérieur à zéro.`);
  if (amountCents > 100_000_000) return refuse(`le montant ${quote(amountText)} dépasse un million d’euros : vérifiez la colonne.`);
  const statusText = cell('status');
  const status = index.status === undefined ? 'succeeded' : parseStatus(statusText);
  if (!status) return refuse(`le statut ${quote(statusText)} est inconnu (attendu par exemple Autorisé, Remboursé, Refusé).`);
  const emailText = cell('email').toLowerCase();
  if (emailText && !EMAIL.test(emailText)) return refuse(`l’adresse e-mail ${quote(emailText)} n’est pas valable.`);
  let consentAt: string | null = null;
  const consentText = cell('consentAt');
  if (consentText) {
    consentAt = parseDate(consentText) ?? null;
    if (!consentAt) return refuse(`la date de consentement ${quote(consentText)} est impossible.`);
  }

  const company = cell('company');
  const person = [cell('firstName'), cell('lastName')].filter(Boolean).join(' ') || cell('name');
  const name = person || company;
  const address = [cell('address'), cell('address2')].filter(Boolean).join(', ');
  const lang = cell('language').toLowerCase();
  const explicitRef = cell('ref');
  if (index.ref !== undefined && !explicitRef) return refuse('la référence du paiement est vide.');
  const ref = explicitRef || `ligne:${createHash('sha256').update([at, amountCents, emailText, name].join('|')).digest('hex').slice(0, 24)}`;
  return {
    ok: true,
    gift: {
      line,
      ref,
      at,
      amountCents,
      status,
      means: parseMeans(cell('means')) ?? defaultMeans,
      email: emailText || null,
      name,
      details: { kind: company && !person ? 'company' : 'individual', name: person, company, siren: '', address, postalCode: cell('postalCode'), city: cell('city'), country: cell('country') },
      campaign: cell('campaign'),
      receiptNumber: cell('receiptNumber') || null,
      language: LANGS[lang] ?? 'fr',
      consentAt,
    },
  };
}

/** How a campaign's name is compared (the file's, a campaign's French title or address): spaces folded, lower case. */
export const campaignKey = (title: string): string => title.replace(/\s+/g, ' ').trim().toLowerCase();

/** How a donor is recognised (ADR 036): by e-mail, else by name and postal code. */
export const donorKey = (g: Pick<ImportedLine, 'email' | 'name' | 'details'>): string | null =>
  g.email ? `e:${g.email}` : g.name && g.details.postalCode ? `n:${g.name.toLowerCase()}|${g.details.postalCode.replace(/\s/g, '')}` : null;
