import { numberFormat } from '~/lib/intl';

/**
 * Amounts in French words, as a tax receipt prints them ("mille deux cent trente-quatre euros et
 * cinquante-six centimes"). Traditional spelling: hyphens inside the tens, "et" in 21…71,
 * "quatre-vingts" and "cents" plural only when they end the number and are not followed by
 * "mille", "mille" invariable, "million(s)" and "milliard(s)" nouns (and "d'euros" after a round one).
 * Shared with the browser: no server imports.
 */
const UNITS = ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix', 'onze', 'douze', 'treize', 'quatorze', 'quinze', 'seize', 'dix-sept', 'dix-huit', 'dix-neuf'];
const TENS = ['', '', 'vingt', 'trente', 'quarante', 'cinquante', 'soixante'];

/** 0–99; `final` says whether nothing follows (for "quatre-vingts"). */
function below100(n: number, final: boolean): string {
  if (n < 20) return UNITS[n];
  if (n < 70) {
    const t = TENS[Math.floor(n / 10)];
    const u = n % 10;
    if (u === 0) return t;
    return u === 1 ? `${t} et un` : `${t}-${UNITS[u]}`;
  }
  if (n < 80) return n === 71 ? 'soixante et onze' : `soixante-${UNITS[n - 60]}`;
  const rest = n - 80;
  if (rest === 0) return final ? 'quatre-vingts' : 'quatre-vingt';
  return `quatre-vingt-${UNITS[rest]}`;
}

/** 0–999 (0 gives ''), `final` as above. */
function below1000(n: number, final: boolean): string {
  const h = Math.floor(n / 100);
  const r = n % 100;
  const parts: string[] = [];
  if (h === 1) parts.push('cent');
  else if (h > 1) parts.push(r === 0 && final ? `${UNITS[h]} cents` : `${UNITS[h]} cent`);
  if (r > 0 || h === 0) parts.push(below100(r, final));
  return n === 0 ? '' : parts.join(' ');
}

/** A whole number from 0 to 999 999 999 999 in words. */
export function integerInFrench(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0 || n >= 1e12) throw new RangeError(`out of range: ${n}`);
  if (n === 0) return 'zéro';
  const milliards = Math.floor(n / 1e9);
  const millions = Math.floor((n % 1e9) / 1e6);
  const milliers = Math.floor((n % 1e6) / 1000);
  const rest = n % 1000;
  const parts: string[] = [];
  // Before a noun (million, milliard) "cents"/"quatre-vingts" keep their s: they end their group.
  if (milliards) parts.push(`${below1000(milliards, true)} ${milliards > 1 ? 'milliards' : 'milliard'}`);
  if (millions) parts.push(`${below1000(millions, true)} ${millions > 1 ? 'millions' : 'million'}`);
  // Before "mille" (an adjective) they never do; and "mille" alone, never "un mille".
  if (milliers) parts.push(milliers === 1 ? 'mille' : `${below1000(milliers, false)} mille`);
  if (rest) parts.push(below1000(rest, true));
  return parts.join(' ');
}

/** Euro cents in words: "mille deux cent trente-quatre euros et cinquante-six centimes". */
export function euroCentsInFrench(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`invalid amount: ${cents}`);
  const euros = Math.floor(cents / 100);
  const c = cents % 100;
  const centimes = c ? `${integerInFrench(c)} ${c > 1 ? 'centimes' : 'centime'}` : '';
  if (euros === 0 && c) return centimes;
  // "un million d'euros": after a round million or milliard, "de".
  const round = euros >= 1e6 && euros % 1e6 === 0;
  const unit = euros > 1 ? 'euros' : 'euro';
  const eurosText = `${integerInFrench(euros)} ${round ? `d’${unit}` : unit}`;
  return c ? `${eurosText} et ${centimes}` : eurosText;
}

/** "1 234,56 €" as printed on the receipt (narrow no-break spaces normalised to plain spaces). */
export function euroFigures(cents: number): string {
  const s = numberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(cents / 100);
  return s.replace(/[\u202f\u00a0]/g, ' ');
}
