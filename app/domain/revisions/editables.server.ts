import type { DB } from '~db/index';
import { SITE_TAG } from '~/lib/cache-tags';
import type { AdminArea } from '~/domain/users/permissions';
import type { Snapshot } from './editorial';

export type WriteOutcome = 'ok' | 'conflict' | 'notFound' | 'taken';

/** The live item as the workflow sees it. */
export interface LiveItem {
  snapshot: Snapshot;
  version: number;
  /** Whether visitors see it (a published post, an active project…). */
  published: boolean;
  label: string;
}

/**
 * What a content type gives the editorial workflow to join it (ADR 015): how to read its live
 * item as a snapshot and write one back with the optimistic version check. The workflow keeps
 * revisions, drafts, schedules and autosaves for it; the type's own tables stay as they are.
 */
export interface Editable {
  /** Stored in `entity_type` of revisions, drafts and autosaves; also the URL segment of its history screen. */
  type: string;
  /** The back-office area whose role check guards its editorial screens. */
  area: AdminArea;
  /** The back office's list of the type; an item's editor is `adminPath/<id>`, its history `adminPath/<id>/historique`. */
  adminPath: string;
  /** "cet article", "cette campagne"…: how the screens name one item of the type. */
  noun: string;
  /**
   * The public page showing the item, for "Aperçu" (undefined when the type has none), from its
   * live snapshot (a campaign's page is found by its address). May carry a query string.
   */
  publicPath?(id: string, live: Snapshot): string;
  /**
   * The CDN keys (app/lib/cache-tags.ts) of the public pages a change to the item shows on, when
   * they are fewer than the whole site (ADR 025); without it, a change purges every page.
   */
  shownOn?(id: string): string[];
  read(db: DB, id: string): Promise<LiveItem | undefined>;
  /**
   * Writes a snapshot over the live item if it is still at `version` (in the caller's transaction).
   * `taken`: the snapshot holds a value another item now has (a campaign's address); nothing written.
   */
  write(trx: DB, id: string, snapshot: Snapshot, version: number): Promise<WriteOutcome>;
  /** The snapshot made visible to visitors (status Publié…), for "Publier" and scheduled publication. */
  asPublished(snapshot: Snapshot): Snapshot;
  /** French names of the snapshot's fields (last path segment), for the comparison screen. */
  fieldLabels: Record<string, string>;
}

/** The CDN keys a published change to this item purges: the pages it shows on, else every page. */
export function changedKeys(ed: Pick<Editable, 'shownOn'>, id: string): string[] {
  return ed.shownOn?.(id) ?? [SITE_TAG];
}
