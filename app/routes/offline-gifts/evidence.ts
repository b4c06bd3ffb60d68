import type { Route } from './+types/evidence';
import { evidenceOf } from '~/domain/offline-gifts/nature.server';
import { db, giftsUser, notFound } from './admin.server';

/** The evidence of a gift in kind or of waived expenses, for the staff allowed on these screens only (ADR 030). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await giftsUser(request, context);
  const file = await evidenceOf(db(), params.paymentId);
  if (!file) notFound();
  return new Response(new Uint8Array(file.data), {
    headers: {
      'Content-Type': file.mime,
      'Content-Disposition': `attachment; filename="${file.fileName.replace(/[^A-Za-z0-9._()-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
