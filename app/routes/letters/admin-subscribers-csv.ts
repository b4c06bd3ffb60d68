import type { Route } from './+types/admin-subscribers-csv';
import { SOURCE_LABELS, STATE_LABELS, subscriberFilterFrom } from '~/domain/subscribers/consent';
import { listSubscribers } from '~/domain/subscribers/subscribers.server';
import { csvDocument } from '~/lib/csv';
import { db } from '~/lib/runtime.server';
import { requireUser } from '~/routes/admin/auth.server';

/** GET /admin/lettres/abonnes.csv: the subscribers the filters select, addresses included (Admins only). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'letters', role: 'Admin' });
  const rows = await listSubscribers(db(), subscriberFilterFrom(new URL(request.url).searchParams), 1_000_000);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(
    csvDocument(['Email', 'État', 'Origine', 'Langue', 'Inscrit le', 'Mis à jour le'], rows.map((s) => [s.email, STATE_LABELS[s.status], SOURCE_LABELS[s.source], s.language, s.createdAt, s.updatedAt])),
    { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="abonnes-lettres-${day}.csv"`, 'Cache-Control': 'private, no-store' } },
  );
}
