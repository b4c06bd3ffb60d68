import type { Route } from './+types/export';
import { donorExportCsv, exportDonorData } from '~/domain/donors/personal-data.server';
import { db } from '~/lib/runtime.server';
import { NO_STORE, requireDonor } from './session.server';

/** GET /mon-espace/export/json|csv: everything kept under the signed-in donor's email. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const donor = await requireDonor(request);
  return donorDownload(await exportDonorData(db(), donor.email), params.format);
}

export function donorDownload(x: Awaited<ReturnType<typeof exportDonorData>>, format: string | undefined): Response {
  const day = x.exportedAt.slice(0, 10);
  if (format === 'json') {
    return new Response(JSON.stringify(x, null, 2), {
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': `attachment; filename="donnees-fondation-thv-${day}.json"`, ...NO_STORE },
    });
  }
  if (format === 'csv') {
    return new Response(donorExportCsv(x), {
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="donnees-fondation-thv-${day}.csv"`, ...NO_STORE },
    });
  }
  return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain', ...NO_STORE } });
}
