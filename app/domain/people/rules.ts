/**
 * The duplicate rules and what a merge moves (ADR 038), pure: the SQL finds records sharing a key,
 * these functions say why two records look like one person, what a merge carries over and whether
 * it may still be taken back.
 */
import { nameKey, phoneKey, postalKey } from './keys';

/** What one address of a record says about its person. */
export interface Facet {
  personId: string;
  email: string;
  name: string;
  postalCode: string;
  phone: string;
}

/** Two addresses differing only by case are one record from the start (keys.ts `emailKey`): no rule needed for them. */
export type DuplicateReason = 'name_postal' | 'phone';

export const REASON_LABELS: Record<DuplicateReason, string> = {
  name_postal: 'même nom et même code postal',
  phone: 'même numéro de téléphone',
};

/** Why two facets of two different records look like one person (none when they are the same record). */
export function reasonsBetween(a: Facet, b: Facet): DuplicateReason[] {
  if (a.personId === b.personId) return [];
  const out: DuplicateReason[] = [];
  const name = nameKey(a.name);
  if (name !== '' && name === nameKey(b.name) && postalKey(a.postalCode) !== '' && postalKey(a.postalCode) === postalKey(b.postalCode)) out.push('name_postal');
  if (phoneKey(a.phone) !== '' && phoneKey(a.phone) === phoneKey(b.phone)) out.push('phone');
  return out;
}

export interface SuggestedPair {
  /** The two records, the smaller id first. */
  a: string;
  b: string;
  reasons: DuplicateReason[];
}

/** The key a pair is known by, whatever its order. */
export function pairKey(x: string, y: string): [string, string] {
  return x < y ? [x, y] : [y, x];
}

/**
 * The pairs among facets that share a key (facets of one name, postal code or phone, as the SQL
 * grouped them), each once with all its reasons, minus the pairs staff dismissed; most reasons first.
 */
export function suggestPairs(facets: readonly Facet[], dismissed: ReadonlySet<string> = new Set()): SuggestedPair[] {
  const pairs = new Map<string, SuggestedPair>();
  for (let i = 0; i < facets.length; i++) {
    for (let j = i + 1; j < facets.length; j++) {
      const reasons = reasonsBetween(facets[i], facets[j]);
      if (reasons.length === 0) continue;
      const [a, b] = pairKey(facets[i].personId, facets[j].personId);
      const key = `${a}|${b}`;
      if (dismissed.has(key)) continue;
      const known = pairs.get(key) ?? { a, b, reasons: [] };
      for (const r of reasons) if (!known.reasons.includes(r)) known.reasons.push(r);
      pairs.set(key, known);
    }
  }
  return [...pairs.values()].sort((x, y) => y.reasons.length - x.reasons.length || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
}

/** What a merge moves from the merged record to the survivor, kept to take it back. */
export interface Moved {
  emails: string[];
  notes: string[];
  /** Every tag the merged record had. */
  tags: string[];
  /** The ones the survivor did not have (added by the merge, removed when it is taken back). */
  addedTags: string[];
}

export function plannedMove(emails: readonly string[], notes: readonly string[], mergedTags: readonly string[], survivorTags: readonly string[]): Moved {
  const had = new Set(survivorTags);
  return { emails: [...emails], notes: [...notes], tags: [...mergedTags], addedTags: mergedTags.filter((t) => !had.has(t)) };
}

export type MergeRefusal = 'same' | 'missing' | 'already_merged';

/** Whether two records may be merged: two live records, not one. */
export function mergeRefusal(survivor: { id: string; merged_into: string | null } | undefined, merged: { id: string; merged_into: string | null } | undefined): MergeRefusal | null {
  if (!survivor || !merged) return 'missing';
  if (survivor.id === merged.id) return 'same';
  if (survivor.merged_into !== null || merged.merged_into !== null) return 'already_merged';
  return null;
}

export type UndoBlocker = 'undone' | 'later_merge' | 'emails_moved' | 'joint_receipt';

export const UNDO_BLOCKER_LABELS: Record<UndoBlocker, string> = {
  undone: 'Cette fusion a déjà été annulée.',
  later_merge: 'Une fusion plus récente concerne l’une de ces fiches : annulez-la d’abord.',
  emails_moved: 'Une adresse de la fiche fusionnée n’appartient plus à la fiche conservée.',
  joint_receipt: 'Un reçu annuel émis depuis la fusion additionne les dons des deux fiches : la fusion ne peut plus être annulée.',
};

/**
 * Whether a merge may still be taken back: nothing new depends on it. `laterMerges`: merges made
 * since, not taken back, involving either record; `survivorEmails`: the survivor's addresses now;
 * `receiptsSince`: the donation ids of each receipt issued since the merge, with the addresses those
 * gifts were made under.
 */
export function undoBlocker(
  merge: { undone_at: string | null },
  moved: Moved,
  laterMerges: number,
  survivorEmails: ReadonlySet<string>,
  receiptsSince: readonly (readonly string[])[],
): UndoBlocker | null {
  if (merge.undone_at !== null) return 'undone';
  if (laterMerges > 0) return 'later_merge';
  if (!moved.emails.every((e) => survivorEmails.has(e))) return 'emails_moved';
  const movedSet = new Set(moved.emails);
  const joint = receiptsSince.some((emails) => emails.some((e) => movedSet.has(e)) && emails.some((e) => !movedSet.has(e)));
  return joint ? 'joint_receipt' : null;
}
