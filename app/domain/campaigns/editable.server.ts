import type { Editable } from '~/domain/revisions/editables.server';
import { updateVersioned } from '~/domain/content/store.server';
import type { CampaignInput } from './campaigns';
import { CAMPAIGN_TYPE, campaignLabel, campaignSnapshot, clean, getCampaign } from './campaigns.server';

/**
 * Campaigns in the editorial workflow (ADR 015): drafts of a published campaign, preview on its
 * public page, scheduled launch, autosave, revisions. A campaign is published unless its status is
 * "Brouillon"; its page is found by its address, so the preview path comes from the live item.
 */
export const campaignEditable: Editable = {
  type: CAMPAIGN_TYPE,
  noun: 'cette campagne',
  area: 'campaigns',
  adminPath: '/admin/campaigns',
  publicPath: (_id, live) => `/campagnes/${encodeURIComponent(String(live.slug))}`,
  async read(db, id) {
    const c = await getCampaign(db, id);
    return c && { snapshot: campaignSnapshot(c), version: c.version, published: c.status !== 'draft', label: campaignLabel(c) };
  },
  async write(trx, id, snapshot, version) {
    const values = clean(snapshot as unknown as CampaignInput);
    // Another campaign may have taken this address since the draft or revision was saved.
    if (await trx.selectFrom('campaigns').select('id').where('slug', '=', values.slug).where('id', '!=', id).executeTakeFirst()) return 'taken';
    return updateVersioned(trx, 'campaigns', id, version, values);
  },
  // Publishing a draft campaign opens it; an ended one published again stays ended.
  asPublished: (snapshot) => ({ ...snapshot, status: snapshot.status === 'draft' ? 'active' : snapshot.status }),
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
