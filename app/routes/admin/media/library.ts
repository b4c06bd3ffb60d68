import type { Route } from './+types/library';
import { listMedia } from '~/domain/media/library.server';
import { requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { acceptParam } from './upload';

/** The picker's list: the library's files of one kind (`?type=image|pdf`), newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'media' });
  return Response.json({ items: await listMedia(db(), acceptParam(request)) });
}
