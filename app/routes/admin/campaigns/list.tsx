import { Link } from 'react-router';
import type { Route } from './+types/list';
import { CAMPAIGN_STATUS_LABELS, progressPercent } from '~/domain/campaigns/campaigns';
import { CAMPAIGN_TYPE, listCampaignsPage } from '~/domain/campaigns/campaigns.server';
import { formatParis } from '~/domain/revisions/editorial';
import { scheduledFor } from '~/domain/revisions/workflow.server';
import { listQuery } from '~/domain/content/forms';
import { formatMoney } from '~/lib/currency';
import { requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { primaryButton } from '~/ui/admin/Field';
import { EmptyRow, ListSearch, Pagination, RowActions, frDate, td } from '~/ui/admin/content';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'campaigns' });
  const list = await listCampaignsPage(db(), listQuery(new URL(request.url)));
  const scheduled = await scheduledFor(db(), CAMPAIGN_TYPE, list.items.map((c) => c.id));
  return {
    list: {
      ...list,
      items: list.items.map((c) => ({
        id: c.id,
        slug: c.slug,
        title: c.translations.fr?.title ?? '',
        status: CAMPAIGN_STATUS_LABELS[c.status] ?? c.status,
        endsOn: c.endsOn,
        raised: formatMoney(c.totals.raisedCents, 'EUR', 'fr'),
        goal: c.goalCents === null ? '' : formatMoney(c.goalCents, 'EUR', 'fr'),
        percent: progressPercent(c.totals.raisedCents, c.goalCents),
        donors: c.totals.donors,
        scheduledFor: scheduled.has(c.id) ? formatParis(scheduled.get(c.id)!) : null,
      })),
    },
  };
}

export const meta: Route.MetaFunction = () => [{ title: 'Campagnes | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Campaigns({ loaderData }: Route.ComponentProps) {
  const { list } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Campagnes</h1>
        <Link to="/admin/campaigns/new" className={primaryButton}>
          Ajouter une campagne
        </Link>
      </div>
      <ListSearch list={list} label="Rechercher une campagne" placeholder="Titre, adresse…" />
      <AdminTable caption="Campagnes" columns={['Titre', 'Statut', 'Fin', 'Collecté', 'Objectif', 'Donateurs']}>
        {list.items.length === 0 && <EmptyRow colSpan={7}>Aucune campagne.</EmptyRow>}
        {list.items.map((c) => (
          <tr key={c.id} data-testid="campaign-row">
            <td className={`${td} font-medium text-gray-900`}>
              {c.title}
              <span className="block text-sm font-normal text-gray-600">/campagnes/{c.slug}</span>
            </td>
            <td className={td}>
              {c.status}
              {c.scheduledFor && <span className="mt-1 block text-sm font-medium text-amber-900">Programmé pour le {c.scheduledFor}</span>}
            </td>
            <td className={td}>{c.endsOn ? frDate(c.endsOn) : '—'}</td>
            <td className={td}>
              {c.raised}
              {c.percent !== null && <span className="block text-sm text-gray-600">{c.percent} %</span>}
            </td>
            <td className={td}>{c.goal || '—'}</td>
            <td className={td}>{c.donors}</td>
            <RowActions base="/admin/campaigns" id={c.id} name={c.title} what="La campagne" />
          </tr>
        ))}
      </AdminTable>
      <Pagination list={list} />
    </div>
  );
}
