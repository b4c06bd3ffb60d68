import { diffWords } from 'diff';
import { LANGS, type Lang } from '~/lib/i18n';
import { dateTimeFormat } from '~/lib/intl';

/**
 * The editorial workflow's shared, browser-safe part (issue #17, ADR 015): snapshots, their
 * per-field comparison, Paris wall-clock times and "il y a 2 min".
 */

/** An item's editable fields as stored in a revision, draft or autosave: plain JSON. */
export type Snapshot = { [key: string]: unknown };

/** Names an item of any content type (post, project, partner, page, campaign…). */
export interface EntityRef {
  type: string;
  id: string;
}

/**
 * What an edit form was opened on: the live item's `version`, and the `saved_at` of the draft it
 * showed (empty: there was none). A button pressed on that form is refused with `conflict` when
 * either changed since, so that nobody overwrites, publishes over or discards what they never saw;
 * an autosaved copy is offered back only on the same pair.
 */
export interface OpenedOn {
  version: number;
  draftSavedAt: string;
}

export const REVISION_KINDS = ['initial', 'create', 'save', 'draft', 'publish', 'schedule', 'restore'] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

export const KIND_LABELS: Record<RevisionKind, string> = {
  initial: 'Version d’origine',
  create: 'Création',
  save: 'Enregistrement',
  draft: 'Brouillon',
  publish: 'Publication',
  schedule: 'Publication programmée',
  restore: 'Restauration',
};

export interface RevisionSummary {
  number: number;
  kind: RevisionKind;
  authorName: string;
  createdAt: string;
}

/** `{ 'image': …, 'translations.fr.title': … }`: every leaf of a snapshot under its dotted path. */
export function flattenSnapshot(snapshot: Snapshot, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(snapshot)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) Object.assign(out, flattenSnapshot(value as Snapshot, path));
    else out[path] = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  }
  return out;
}

export interface FieldDiff {
  /** Dotted path in the snapshot. */
  path: string;
  /** The field's name without its language (`title` for `translations.en.title`). */
  field: string;
  lang: Lang | null;
  before: string;
  after: string;
  changed: boolean;
  /** Word-level parts: removed ones belong to the left column, added ones to the right. */
  parts: { value: string; added: boolean; removed: boolean }[];
}

function langOf(path: string): { field: string; lang: Lang | null } {
  const segments = path.split('.');
  const lang = segments.find((s) => (LANGS as readonly string[]).includes(s)) as Lang | undefined;
  return { field: segments[segments.length - 1], lang: lang ?? null };
}

/** Field-by-field, language-by-language comparison of two snapshots (fields of either side). */
export function compareSnapshots(before: Snapshot, after: Snapshot): FieldDiff[] {
  const a = flattenSnapshot(before);
  const b = flattenSnapshot(after);
  const paths = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return paths.map((path) => {
    const left = a[path] ?? '';
    const right = b[path] ?? '';
    const parts = left === right ? [{ value: left, added: false, removed: false }] : diffWords(left, right).map((p) => ({ value: p.value, added: Boolean(p.added), removed: Boolean(p.removed) }));
    return { path, ...langOf(path), before: left, after: right, changed: left !== right, parts };
  });
}

/** The paths whose value differs, for "what changed" in the revision list. */
export function changedPaths(before: Snapshot | undefined, after: Snapshot): string[] {
  return compareSnapshots(before ?? {}, after)
    .filter((d) => d.changed)
    .map((d) => d.path);
}

// ---- Europe/Paris wall-clock times ------------------------------------------------------------

export const PARIS = 'Europe/Paris';

/** Minutes east of UTC that Paris is at this instant (60 in winter, 120 in summer). */
function parisOffsetMinutes(at: Date): number {
  const parts = dateTimeFormat('en-US', { timeZone: PARIS, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(at);
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A `datetime-local` value read as Paris time, as a UTC instant (ISO); undefined when malformed. */
export function parisLocalToUtc(local: string): string | undefined {
  const m = LOCAL.exec(local.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  if (Number.isNaN(wall) || new Date(wall).getUTCDate() !== d || h > 23 || mi > 59) return undefined;
  // The offset at the guessed instant, then once more at the corrected one (around DST changes).
  let utc = wall - parisOffsetMinutes(new Date(wall)) * 60_000;
  utc = wall - parisOffsetMinutes(new Date(utc)) * 60_000;
  return new Date(utc).toISOString();
}

/** A UTC instant as the `datetime-local` value showing it in Paris. */
export function utcToParisLocal(iso: string): string {
  const at = new Date(iso);
  const shifted = new Date(at.getTime() + parisOffsetMinutes(at) * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/** "23 novembre 2026 à 18:30" in Paris time. */
export function formatParis(iso: string): string {
  return dateTimeFormat('fr-FR', { timeZone: PARIS, dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
}

/** "à l'instant", "il y a 2 min", "il y a 3 h", "il y a 2 j". */
export function timeAgo(iso: string, now: Date): string {
  const minutes = Math.floor((now.getTime() - new Date(iso).getTime()) / 60_000);
  if (minutes < 1) return "à l'instant";
  if (minutes < 60) return `il y a ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `il y a ${hours} h`;
  return `il y a ${Math.floor(hours / 24)} j`;
}

/** `path` (which may carry a query string and a `#fragment` already) with these parameters added: preview links. */
export function withQuery(path: string, params: Record<string, string>): string {
  const hash = path.indexOf('#');
  const [base, fragment] = hash === -1 ? [path, ''] : [path.slice(0, hash), path.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}${new URLSearchParams(params)}${fragment}`;
}
