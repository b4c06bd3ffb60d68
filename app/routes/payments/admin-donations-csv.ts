import type { Route } from './+types/admin-donations-csv';
import { PROVIDER_LABELS, STATUS_LABELS, type DonationStatus, type ProviderName } from '~/domain/donations/status';
import { toDecimalString } from '~/domain/donations/money';
import { requireUser } from '~/lib/auth.server';
import { csvCell as cell } from '~/lib/csv';
import { donationsFor, EXPORT_LIMIT } from './admin-donations.server';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'donations' });
  const { rows } = await donationsFor(request, EXPORT_LIMIT);
  const header = ['Date', 'Moyen', 'Référence', 'Statut', 'Montant', 'Devise', 'Valeur EUR', 'Fréquence', 'Nom', 'Email', 'Langue', 'Vérifiable', 'Erreur', 'ID'];
  const lines = rows.map((d) =>
    [
      d.created_at,
      PROVIDER_LABELS[d.provider as ProviderName] ?? d.provider,
      d.provider_ref,
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
    ]
      .map(cell)
      .join(';'),
  );
  const body = `\uFEFF${[header.map(cell).join(';'), ...lines].join('\r\n')}\r\n`;
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="dons-${day}.csv"`, 'Cache-Control': 'private, no-store' },
  });
}
