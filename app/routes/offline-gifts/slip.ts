import type { Route } from './+types/slip';
import { depositSlipPdf } from '~/domain/offline-gifts/slip-pdf.server';
import { db, giftsUser, notFound } from './admin.server';

/** The deposit slip of a batch (bordereau de remise de chèques), as a PDF download. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await giftsUser(request, context);
  const slip = await depositSlipPdf(db(), params.batchId);
  if (!slip) notFound();
  return new Response(new Uint8Array(slip.pdf), {
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="bordereau-remise-${slip.number}.pdf"`, 'Cache-Control': 'private, no-store' },
  });
}
