import type { Route } from './+types/admin-segment-csv';
import { yearOf } from '~/domain/people/figures';
import { getSegment, segmentCsv, segmentMembers } from '~/domain/people/segments.server';
import { csvResponse } from '~/lib/csv';
import { db, notFound, peopleUser } from './admin.server';

/** A segment's records as CSV (Admin only: it holds addresses), judged today. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await peopleUser(request, context, { admin: true });
  const segment = await getSegment(db(), params.segmentId);
  if (!segment) notFound();
  const now = new Date();
  return csvResponse(segmentCsv(await segmentMembers(db(), segment, now), yearOf(now)), `segment-${segment.id.slice(0, 40)}-${now.toISOString().slice(0, 10)}.csv`);
}
