/**
 * How a donor being erased is recognised in free text (mails kept in the outbox, audit lines): their
 * email anywhere, in any case; a name they gave only as a whole full name (two words or more,
 * spaces as typed or not), never inside another word, so that a lone first name or a longer name
 * never matches someone else. Pure: erasure (personal-data.server.ts) does the reading and writing.
 */
export interface Mentions {
  /** Fragments a database can pre-select rows with (`lower(column) like %fragment%`). */
  fragments: string[];
  /** Whether the text names the donor. */
  in(text: string): boolean;
  /**
   * The text with every mention replaced by `ref`; an address written `Name <email>` goes whole
   * (the name is the one the donor signed with).
   */
  rewrite(text: string, ref: string): string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const normalise = (s: string) => s.trim().replace(/\s+/g, ' ');

/** Full names only: one-word names and empty ones are left out; the longest first. */
export function fullNames(names: (string | null | undefined)[]): string[] {
  const kept = new Map<string, string>();
  for (const raw of names) {
    const name = normalise(raw ?? '');
    if (name.includes(' ') && !kept.has(name.toLowerCase())) kept.set(name.toLowerCase(), name);
  }
  return [...kept.values()].sort((a, b) => b.length - a.length);
}

export function donorMentions(email: string, names: (string | null | undefined)[]): Mentions {
  const full = fullNames(names);
  const nameRe = full.map((n) => `(?<![\\p{L}\\p{N}])${n.split(' ').map(escape).join('\\s+')}(?![\\p{L}\\p{N}])`);
  const any = new RegExp([escape(email), ...nameRe].join('|'), 'iu');
  const signed = new RegExp(`[^<>"\\n]*<${escape(email)}>`, 'giu');
  const each = new RegExp([escape(email), ...nameRe].join('|'), 'giu');
  return {
    // One word of a name (its longest) pre-selects it, however the words are spaced.
    fragments: [email, ...full.map((n) => n.split(' ').reduce((a, b) => (b.length > a.length ? b : a)))],
    in: (text) => any.test(text),
    rewrite: (text, ref) => text.replace(signed, ref).replace(each, ref),
  };
}
