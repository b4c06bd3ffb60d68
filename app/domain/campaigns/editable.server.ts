import type { Editable } from '~/domain/revisions/editables.server';
import { updateVersioned } from '~/domain/content/store.server';
import { CAMPAIGN_TYPE, campaignLabel, campaignSnapshot, clean, getCampaign, type CampaignInput } from './campaigns.server';

/**
 * Campaigns in the editorial workflow: revisions, comparison and restore (ADR 015). Drafts,
 * preview and scheduling would need the edit screen to call `editorialState` / `editorialAction`;
 * `publicPath` is left out until then (the public page is `/campagnes/{slug}`, not found by id).
 */
export const campaignEditable: Editable = {
  type: CAMPAIGN_TYPE,
  noun: 'cette campagne',
  area: 'campaigns',
  adminPath: '/admin/campaigns',
  async read(db, id) {
    const c = await getCampaign(db, id);
    return c && { snapshot: campaignSnapshot(c), version: c.version, published: c.status !== 'draft', label: campaignLabel(c) };
  },
  write: (trx, id, snapshot, version) => updateVersioned(trx, 'campaigns', id, version, clean(snapshot as unknown as CampaignInput)),
  asPublished: (snapshot) => ({ ...snapshot, status: 'active' }),
  fieldLabels: {
    slug: 'Adresse',
    status: 'Statut',
    image: 'Image de couverture',
    goalCents: 'Objectif (centimes)',
    startsOn: 'Début',
    endsOn: 'Fin',
    projectId: 'Projet',
    amounts: 'Montants suggérés',
    title: 'Titre',
    summary: 'Description courte',
    story: 'Récit',
  },
};
