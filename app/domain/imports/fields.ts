/**
 * What an imported line can say (ADR 036), the known exports' columns (presets), and how a cell's
 * text is read: dates `dd/mm/yyyy hh:mm` or ISO, amounts `85,00` or `1,000.00`, statuses and means
 * in the words of HelloAsso, GiveWP or a spreadsheet. Pure: shared with the browser.
 */
import { parisInstant } from '~/lib/paris';
import type { Means } from '~/domain/means/means';
import { MEANS_WORDS } from './providers/means-words';

/** The largest file taken (a 100 000-line HelloAsso export weighs about 15 MB). */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** Refused lines and donors to review listed by a dry run (the counts go on). */
export const MAX_LISTED = 500;

export const FIELDS = [
  'ref',
  'date',
  'amount',
  'status',
  'email',
  'firstName',
  'lastName',
  'name',
  'company',
  'address',
  'address2',
  'postalCode',
  'city',
  'country',
  'campaign',
  'means',
  'receiptNumber',
  'language',
  'consentAt',
  'membershipType',
] as const;
export type Field = (typeof FIELDS)[number];

export const FIELD_LABELS: Record<Field, string> = {
  ref: 'Référence du paiement',
  date: 'Date du don',
  amount: 'Montant',
  status: 'Statut',
  email: 'E-mail',
  firstName: 'Prénom',
  lastName: 'Nom',
  name: 'Nom complet',
  company: 'Organisme',
  address: 'Adresse',
  address2: 'Complément d’adresse',
  postalCode: 'Code postal',
  city: 'Ville',
  country: 'Pays',
  campaign: 'Campagne',
  means: 'Moyen de paiement',
  receiptNumber: 'N° de reçu déjà émis',
  language: 'Langue',
  consentAt: 'Date du consentement aux nouvelles',
  membershipType: 'Type d’adhésion',
};

/** What a file holds: gifts, or members with their dues (the memberships export). */
export const IMPORT_KINDS = ['gifts', 'members'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export const IMPORT_KIND_LABELS: Record<ImportKind, string> = { gifts: 'Des dons', members: 'Des adhésions (membres et cotisations)' };

/** Without these, no line can be read: the file is refused with their names. */
export const REQUIRED_FIELDS: Record<ImportKind, readonly Field[]> = { gifts: ['date', 'amount'], members: ['date', 'lastName'] };

export type Mapping = Partial<Record<Field, string>>;

/** Where the gifts come from: the donations' `source` column, and the key of their reference. */
export const SOURCES = ['helloasso', 'givewp', 'spreadsheet'] as const;
export type ImportSource = (typeof SOURCES)[number];
export const SOURCE_LABELS: Record<ImportSource, string> = { helloasso: 'HelloAsso', givewp: 'GiveWP', spreadsheet: 'Tableur' };

export interface Preset {
  id: string;
  label: string;
  source: ImportSource;
  /** Gifts unless said. */
  kind?: ImportKind;
  mapping: Mapping;
  /** The means when the file names none (or names one we do not know). */
  defaultMeans: Means;
  /** Columns that say the export is this one even when another of its columns is missing (then named as missing). */
  signature: string[];
}

/** The exports we know by their columns (their headers, as the tools write them). */
export const BUILT_IN_PRESETS: readonly Preset[] = [
  {
    id: 'helloasso-payments',
    label: 'HelloAsso — export des paiements',
    source: 'helloasso',
    defaultMeans: 'card',
    signature: ['Référence commande', 'Référence paiement'],
    mapping: {
      ref: 'Référence paiement',
      date: 'Date du paiement',
      amount: 'Montant total',
      status: 'Statut du paiement',
      lastName: 'Nom payeur',
      firstName: 'Prénom payeur',
      email: 'Email payeur',
      campaign: 'Campagne',
      means: 'Moyen de paiement',
    },
  },
  {
    // Its columns as scripts reading it name them (HelloAsso documents no list); the organisation's custom fields follow.
    id: 'helloasso-memberships',
    label: 'HelloAsso — export des adhésions',
    source: 'helloasso',
    kind: 'members',
    defaultMeans: 'card',
    signature: ['Référence commande', 'Nom adhérent'],
    mapping: {
      ref: 'Référence commande',
      date: 'Date de la commande',
      amount: 'Montant tarif',
      status: 'Statut de la commande',
      lastName: 'Nom adhérent',
      firstName: 'Prénom adhérent',
      email: 'Email payeur',
      membershipType: 'Tarif',
    },
  },
  {
    id: 'givewp-donations',
    label: 'GiveWP — export des dons',
    source: 'givewp',
    defaultMeans: 'card',
    signature: ['Donation ID', 'Donation Status'],
    mapping: {
      ref: 'Donation ID',
      date: 'Donation Date',
      amount: 'Donation Total',
      status: 'Donation Status',
      firstName: 'First Name',
      lastName: 'Last Name',
      email: 'Email Address',
      company: 'Company Name',
      address: 'Address 1',
      address2: 'Address 2',
      city: 'City',
      postalCode: 'Zip',
      country: 'Country',
      campaign: 'Form Title',
      means: 'Payment Gateway',
    },
  },
];

export const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/** The built-in preset whose signature columns the header holds, if any (its other columns are checked by the dry run). */
export function detectPreset(header: readonly string[]): Preset | undefined {
  const have = new Set(header.map(fold));
  return BUILT_IN_PRESETS.find((p) => p.signature.every((c) => have.has(fold(c))));
}

/** Each mapped field's column index in the header (folded comparison); a missing column is listed. */
export function columnsOf(header: readonly string[], mapping: Mapping): { index: Partial<Record<Field, number>>; missing: string[] } {
  const folded = header.map(fold);
  const index: Partial<Record<Field, number>> = {};
  const missing: string[] = [];
  for (const f of FIELDS) {
    const col = mapping[f];
    if (!col) continue;
    const i = folded.indexOf(fold(col));
    if (i < 0) missing.push(col);
    else index[f] = i;
  }
  return { index, missing };
}

/** A mapping guessed from a header for a spreadsheet: a column named as the field's label, or a usual word. */
const USUAL: Partial<Record<Field, string[]>> = {
  ref: ['reference', 'ref', 'id', 'numero'],
  date: ['date', 'date du don'],
  amount: ['montant', 'amount', 'somme'],
  status: ['statut', 'status', 'etat'],
  email: ['email', 'e-mail', 'courriel', 'mail'],
  firstName: ['prenom', 'first name'],
  lastName: ['nom', 'last name', 'nom de famille'],
  postalCode: ['code postal', 'cp', 'zip'],
  city: ['ville', 'city'],
  address: ['adresse', 'address'],
  country: ['pays', 'country'],
  campaign: ['campagne', 'campaign'],
  means: ['moyen de paiement', 'mode de paiement', 'moyen'],
  membershipType: ['type d’adhesion', "type d'adhesion", 'type', 'formule', 'tarif'],
};
export function guessMapping(header: readonly string[]): Mapping {
  const folded = header.map(fold);
  const m: Mapping = {};
  for (const f of FIELDS) {
    const words = [fold(FIELD_LABELS[f]), ...(USUAL[f] ?? [])];
    const i = folded.findIndex((h) => words.includes(h));
    if (i >= 0) m[f] = header[i];
  }
  return m;
}

/**
 * A date as files write it: `dd/mm/yyyy[ hh:mm[:ss]]`, `yyyy-mm-dd[ hh:mm[:ss]][Z|±hh:mm]`;
 * undefined when impossible. A time without its zone is the Paris wall clock's, as HelloAsso,
 * GiveWP (a French site's time zone) and a French spreadsheet write it; a date without a time is
 * noon in Paris. Answers an ISO instant (UTC).
 */
export function parseDate(text: string): string | undefined {
  const t = text.trim();
  let m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  let y: number, mo: number, d: number;
  let zone: string | undefined;
  if (m) [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else {
    m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?/.exec(t);
    if (!m) return undefined;
    [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    zone = m[7];
  }
  const [h, mi, s] = m[4] === undefined ? [12, 0, 0] : [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59 || y < 1900 || y > 2100) return undefined;
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return undefined; // 31/02
  if (zone === undefined) return parisInstant(y, mo, d, h, mi, s).toISOString();
  const offsetMinutes = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s) - offsetMinutes * 60_000).toISOString();
}

/** An amount in cents: `85,00`, `1 234,56`, `1,000.00`, `50.00 €`, `85`; undefined when not an amount. */
export function parseAmount(text: string): number | undefined {
  let t = text.replace(/[\s\u00a0\u202f€$]|EUR/g, '');
  if (!/^-?[\d.,]+$/.test(t)) return undefined;
  const lastComma = t.lastIndexOf(',');
  const lastDot = t.lastIndexOf('.');
  const decimal = lastComma > lastDot ? ',' : '.';
  const thousands = decimal === ',' ? '.' : ',';
  t = t.split(thousands).join('');
  if (decimal === ',') t = t.replace(',', '.');
  if (!/^-?\d+(\.\d{1,2})?$/.test(t)) return undefined;
  return Math.round(Number(t) * 100);
}

/** What an imported gift's status becomes: succeeded, refunded, or failed (unpaid, refused, cancelled); undefined when unknown. */
export type ImportedStatus = 'succeeded' | 'refunded' | 'failed';
const STATUS_WORDS: Record<string, ImportedStatus> = {
  autorise: 'succeeded',
  valide: 'succeeded',
  paye: 'succeeded',
  verse: 'succeeded',
  reussi: 'succeeded',
  complete: 'succeeded',
  completed: 'succeeded',
  publish: 'succeeded',
  succeeded: 'succeeded',
  paid: 'succeeded',
  rembourse: 'refunded',
  refunded: 'refunded',
  refuse: 'failed',
  annule: 'failed',
  'en attente': 'failed',
  impaye: 'failed',
  echoue: 'failed',
  pending: 'failed',
  failed: 'failed',
  cancelled: 'failed',
  abandoned: 'failed',
  revoked: 'failed',
};
export function parseStatus(text: string): ImportedStatus | undefined {
  return STATUS_WORDS[fold(text)];
}

/** The means a file names, in the words of HelloAsso, GiveWP or a spreadsheet; undefined when unknown. */
export function parseMeans(text: string): Means | undefined {
  const t = fold(text);
  return t ? MEANS_WORDS.find(([re]) => re.test(t))?.[1] : undefined;
}
