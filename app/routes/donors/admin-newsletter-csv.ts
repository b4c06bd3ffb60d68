import type { Route } from './+types/admin-newsletter-csv';
import { newsletterOptIns } from '~/domain/donors/consent.server';
import { requireUser } from '~/routes/admin/auth.server';
import { csvDocument } from '~/lib/csv';
import { db } from '~/lib/runtime.server';

/** GET /admin/donations/nouvelles.csv: donors who asked for the foundation's news and did not withdraw. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'donations' });
  const rows = (await newsletterOptIns(db())).map((o) => [o.email, o.name, o.language, o.givenAt]);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csvDocument(['Email', 'Nom', 'Langue', 'Consentement donné le'], rows), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="abonnes-nouvelles-${day}.csv"`, 'Cache-Control': 'private, no-store' },
  });
}
