import type { Route } from './+types/admin-receipt-pdf';
import { receiptPdfById } from '~/domain/receipts/mail.server';
import { requireUser } from '~/routes/admin/auth.server';
import { runtime } from '~/lib/runtime.server';
import { notFound } from './admin-receipts.server';

/** The receipt's PDF, regenerated from its row: the same bytes the donor was sent. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'receipts' });
  const found = await receiptPdfById(runtime().db, params.receiptId, runtime().storage);
  if (!found) notFound();
  return new Response(new Uint8Array(found.pdf), {
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${found.filename}"`, 'Cache-Control': 'private, no-store' },
  });
}
