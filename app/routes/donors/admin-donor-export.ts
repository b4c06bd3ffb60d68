import type { Route } from './+types/admin-donor-export';
import { audit } from '~/domain/audit/audit.server';
import { normalizeEmail } from '~/domain/donors/links.server';
import { donorRef, exportDonorData } from '~/domain/donors/personal-data.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { donorDownload } from './download.server';

/** GET /admin/donations/donateur/export/json|csv?email=…: a donor's data for an Admin, audited. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const me = await requireUser(request, context, { area: 'donations' });
  const email = normalizeEmail(new URL(request.url).searchParams.get('email'));
  if (!email || (params.format !== 'json' && params.format !== 'csv')) return new Response('Bad Request', { status: 400, headers: { 'Content-Type': 'text/plain' } });
  const x = await exportDonorData(db(), email);
  await audit(db(), actorOf(me), 'donor.exported', donorRef(email), { format: params.format, gifts: x.gifts.length });
  return donorDownload(x, params.format);
}
