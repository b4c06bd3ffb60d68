/**
 * The words other tools' exports use for a means of payment (HelloAsso's "Carte bancaire",
 * GiveWP's gateway names), matched on folded text (no accents, lower case). Here, in a providers/
 * folder, because some of them are payment providers' names (ADR 019).
 */
import type { Means } from '~/domain/means/means';

export const MEANS_WORDS: readonly (readonly [RegExp, Means])[] = [
  [/carte|card|\bcb\b|stripe/, 'card'],
  [/prelevement|sepa/, 'sepa'],
  [/paypal/, 'paypal'],
  [/cheque|check/, 'cheque'],
  [/especes|cash|liquide/, 'cash'],
  [/virement|transfer|offline|hors ligne/, 'transfer'],
];
