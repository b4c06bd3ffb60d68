import type { DB } from '~db/index';
import { saveReceiptSettings } from '~/domain/receipts/settings.server';
import { getReceiptSettings } from '~/domain/receipts/settings.server';
import type { ReceiptSettings } from '~/domain/receipts/settings';
import type { TaxDetails } from '~/domain/receipts/donor-details';

/** Organisation settings with every mandatory field filled, receipts on. */
export const ORGANISATION: ReceiptSettings = {
  enabled: true,
  legalName: 'Fondation THV',
  address: '12 rue de la Paix',
  postalCode: '75002',
  city: 'Paris',
  registration: '123456789',
  object: 'Aide humanitaire et développement en Afrique de l’Ouest',
  legalBase: 'fondation_rup',
  rate: '66',
  model: 'each',
  signatoryName: 'Marie Curie',
  signatoryTitle: 'Présidente',
  signatureImage: '',
  prefix: 'RF',
  ifiEligible: false,
  annualCountsImported: false,
};

export const DONOR: TaxDetails = { kind: 'individual', name: 'Awa Diallo', company: '', siren: '', address: '3 rue des Lilas', postalCode: '75011', city: 'Paris', country: 'France' };

/** Saves (or replaces) the receipt settings. */
export async function setReceiptSettings(db: DB, changes: Partial<ReceiptSettings> = {}): Promise<void> {
  const current = await getReceiptSettings(db);
  const result = await saveReceiptSettings(db, { id: null, name: 'test' }, { ...ORGANISATION, ...changes }, current.version);
  if (result !== 'ok') throw new Error('receipt settings not saved');
}
