import type { Route } from './+types/admin-donations-csv';
import { staffMeansLabel } from '~/domain/means/means';
import { STATUS_LABELS, referenceOf, type DonationStatus } from '~/domain/donations/status';
import { toDecimalString } from '~/lib/currency';
import { requireUser } from '~/routes/admin/auth.server';
import { csvDocument, csvResponse } from '~/lib/csv';
import { donationsFor, EXPORT_LIMIT } from './admin-donations.server';
import { campaignChoices } from '~/domain/campaigns/campaigns.server';
import { runtime } from '~/lib/runtime.server';

const DEDICATION = { honor: 'En l’honneur de', memory: 'En mémoire de' } as Record<string, string>;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'donations' });
  const { rows } = await donationsFor(request, EXPORT_LIMIT);
  const campaigns = new Map((await campaignChoices(runtime().db)).map((c) => [c.id, c.title]));
  const header = ['Date', 'Moyen', 'Référence', 'Statut', 'Montant', 'Devise', 'Valeur EUR', 'Fréquence', 'Nom', 'Email', 'Langue', 'Vérifiable', 'Erreur', 'ID', 'Campagne', 'Frais couverts EUR', 'Dédicace', 'Message de dédicace', 'Email à prévenir'];
  const lines = rows.map((d) =>
    [
      d.created_at,
      staffMeansLabel(d.provider, d.method),
      referenceOf(d),
      STATUS_LABELS[d.status as DonationStatus] ?? d.status,
      toDecimalString(d.amount_minor, d.currency),
      d.currency,
      d.eur_cents === null ? '' : toDecimalString(d.eur_cents, 'EUR'),
      d.frequency === 'monthly' ? 'Mensuel' : 'Ponctuel',
      d.donor_name,
      d.donor_email,
      d.language,
      d.verifiable ? 'oui' : 'non',
      d.error,
      d.id,
      d.campaign_id ? (campaigns.get(d.campaign_id) ?? d.campaign_id) : '',
      d.fee_eur_cents > 0 ? toDecimalString(d.fee_eur_cents, 'EUR') : '',
      d.dedication_kind ? `${DEDICATION[d.dedication_kind] ?? d.dedication_kind} ${d.dedication_name ?? ''}` : '',
      d.dedication_message,
      d.dedication_email,
    ],
  );
  const day = new Date().toISOString().slice(0, 10);
  return csvResponse(csvDocument(header, lines), `dons-${day}.csv`);
}
