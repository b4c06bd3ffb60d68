import type { Route } from './+types/upload';
import { receiveUploads, UploadError } from '~/domain/media/upload.server';
import type { MediaKind } from '~/domain/media/media';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { runtime } from '~/lib/runtime.server';

/** `?type=image|pdf`: a field that holds one kind accepts only that kind. */
export function acceptParam(request: Request): MediaKind | undefined {
  const type = new URL(request.url).searchParams.get('type');
  return type === 'image' || type === 'pdf' ? type : undefined;
}

/** POST multipart (one or more files): `{ results }` with each file's outcome, or `{ error }`. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'media' });
  if (request.method !== 'POST') return Response.json({ error: 'Méthode non autorisée.' }, { status: 405 });
  try {
    const rt = runtime();
    const results = await receiveUploads(request, rt.db, rt.storage, actorOf(user), acceptParam(request));
    return Response.json({ results }, { status: results.some((r) => r.ok) ? 200 : 422 });
  } catch (e) {
    if (e instanceof UploadError) return Response.json({ error: e.message }, { status: e.status });
    throw e;
  }
}
