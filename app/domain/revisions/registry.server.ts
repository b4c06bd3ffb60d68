import { postEditable } from '~/domain/blog/editable.server';
import { campaignEditable } from '~/domain/campaigns/editable.server';
import { letterEditable } from '~/domain/letters/editable.server';
import { pageEditable } from '~/domain/content/editable.server';
import { partnerEditable } from '~/domain/partners/editable.server';
import { projectEditable } from '~/domain/projects/editable.server';
import type { Editable } from './editables.server';

/**
 * The content types in the editorial workflow. A type joins by exporting an `Editable` from its
 * own area (see app/domain/blog/editable.server.ts) and adding it here (ADR 015).
 */
const EDITABLES: Editable[] = [postEditable, projectEditable, partnerEditable, pageEditable, campaignEditable, letterEditable];

export function editable(type: string): Editable | undefined {
  return EDITABLES.find((e) => e.type === type);
}

/** The content type whose editor owns this admin path (`/admin/blog/123/autosave` → posts) and the item's id. */
export function editableAt(pathname: string): { ed: Editable; id: string } | undefined {
  for (const ed of EDITABLES) {
    const prefix = `${ed.adminPath}/`;
    if (!pathname.startsWith(prefix)) continue;
    const id = decodeURIComponent(pathname.slice(prefix.length).split('/')[0] ?? '');
    if (id) return { ed, id };
  }
  return undefined;
}
