/** A donor's email address as the donate forms accept it (shared with the browser). */
export const DONOR_EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;

/** An optional address: empty is none (null), anything else must look like an address. Lower-cased. */
export function readOptionalEmail(input: string): { ok: true; email: string | null } | { ok: false } {
  const email = input.trim().toLowerCase();
  if (email === '') return { ok: true, email: null };
  return DONOR_EMAIL.test(email) ? { ok: true, email } : { ok: false };
}
