import type { Editable } from '~/domain/revisions/editables.server';
import { updateVersioned } from '~/domain/content/store.server';
import { PARTNER_TYPE, columns, getPartner, partnerSnapshot } from './partners.server';
import type { PartnerInput } from './schema';

/**
 * Partners in the editorial workflow (ADR 015): drafts, preview on /partenaires (the draft in place
 * of the partner), scheduling, autosave, revisions, comparison and restore. A partner is always on the site.
 */
export const partnerEditable: Editable = {
  type: PARTNER_TYPE,
  noun: 'ce partenaire',
  area: 'partners',
  adminPath: '/admin/partners',
  publicPath: (id) => `/partenaires?partenaire=${encodeURIComponent(id)}`,
  async read(db, id) {
    const p = await getPartner(db, id);
    return p && { snapshot: partnerSnapshot(p), version: p.version, published: true, label: p.name };
  },
  write: (trx, id, snapshot, version) => updateVersioned(trx, 'partners', id, version, columns(snapshot as unknown as PartnerInput)),
  asPublished: (snapshot) => snapshot,
  fieldLabels: { name: 'Nom', logoUrl: 'Logo', website: 'Site web' },
};
