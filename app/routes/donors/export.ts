import type { Route } from './+types/export';
import { exportDonorData } from '~/domain/donors/personal-data.server';
import { db } from '~/lib/runtime.server';
import { donorDownload } from './download.server';
import { requireDonor } from './session.server';

/** GET /mon-espace/export/json|csv: everything kept under the signed-in donor's email. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const donor = await requireDonor(request);
  return donorDownload(await exportDonorData(db(), donor.email), params.format);
}
