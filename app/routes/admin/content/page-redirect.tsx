import { redirect } from 'react-router';
import type { Route } from './+types/page-redirect';
import { requireUser } from '~/routes/admin/auth.server';

/** /admin/pages/{pageId}, the spec's other spelling, leads to the editor's canonical path. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'pages' });
  throw redirect(`/admin/pages/edit/${encodeURIComponent(params.pageId)}`, 301);
}
