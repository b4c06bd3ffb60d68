/**
 * The keys a person is recognised by (ADR 038), pure and shared with the browser: an address is
 * one person's whatever its case, and the duplicate rules compare names, postal
 * codes and phones the way a person reads them (accents, case, word order and punctuation aside).
 */

/** An email as the register keys it: lowercased, as the reports and the donor space compare it (ADR 016); '' for none. */
export function emailKey(email: string | null | undefined): string {
  return (email ?? '').toLowerCase();
}

/** Letters and digits only, lowercased, without accents: "Élodie-Anne" → "elodie anne". */
export function plainWords(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** A name compared whatever its order and accents ("DIALLO Awa" = "Awa Diallo"); '' for a name of fewer than two words. */
export function nameKey(name: string | null | undefined): string {
  const words = plainWords(name ?? '');
  return words.length < 2 ? '' : [...words].sort().join(' ');
}

/** The name as sorted in the list: lowercased, without accents, single spaces. */
export function sortName(name: string): string {
  return plainWords(name).join(' ');
}

/** A postal code without spaces, upper case ("75 011" → "75011", "sw1a 1aa" → "SW1A1AA"). */
export function postalKey(code: string | null | undefined): string {
  return (code ?? '').replace(/\s+/g, '').toUpperCase();
}

/**
 * A phone number by its digits, a French number in its national form ("+33 6 12 34 56 78",
 * "0033612345678" and "06 12 34 56 78" are one number); '' for fewer than eight digits (not a phone).
 */
export function phoneKey(phone: string | null | undefined): string {
  let digits = (phone ?? '').replace(/\D/g, '');
  if (digits.startsWith('00')) digits = digits.slice(2);
  if (digits.startsWith('33') && digits.length === 11) digits = `0${digits.slice(2)}`;
  return digits.length < 8 ? '' : digits;
}
