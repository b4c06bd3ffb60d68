import { POST_TYPE } from '~/domain/blog/posts.server';
import { CAMPAIGN_TYPE } from '~/domain/campaigns/campaigns.server';
import { PAGE_TYPE } from '~/domain/content/pages.server';
import { PARTNER_TYPE } from '~/domain/partners/partners.server';
import { PROJECT_TYPE } from '~/domain/projects/projects.server';
import type { Editable } from '~/domain/revisions/editables.server';

/**
 * The toast of a save of an item, by content type (SPEC §8: 'Contenu sauvegardé !', 'Projet
 * modifié !', 'Article modifié !', 'Partenaire modifié !'; campaigns are ours). "Publier" took the
 * place of saving (DEPARTURES), so it is also the title of publishing's toast.
 */
const SAVED_TITLE: Record<string, string> = {
  [PAGE_TYPE]: 'Contenu sauvegardé !',
  [PROJECT_TYPE]: 'Projet modifié !',
  [POST_TYPE]: 'Article modifié !',
  [PARTNER_TYPE]: 'Partenaire modifié !',
  [CAMPAIGN_TYPE]: 'Campagne modifiée !',
};

/** What "Publier" adds to the type's title: visitors now see this version. */
export const PUBLISHED_NOTE = 'Les visiteurs voient maintenant cette version.';

export function savedTitle(ed: Editable): string {
  const title = SAVED_TITLE[ed.type];
  if (!title) throw new Error(`No saved toast for the content type "${ed.type}".`);
  return title;
}
