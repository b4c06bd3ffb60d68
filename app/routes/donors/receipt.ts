import type { Route } from './+types/receipt';
import { receiptPdfById } from '~/domain/receipts/mail.server';
import { issuedReceiptOfEmail } from '~/domain/receipts/register.server';
import { runtime } from '~/lib/runtime.server';
import { NO_STORE, requireDonor } from './session.server';

const notFound = () => new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain', ...NO_STORE } });

/**
 * GET /mon-espace/recus/:receiptId: one of the signed-in donor's own tax receipts, as the same PDF
 * the admin download serves. Anything else (unknown, cancelled, another person's) is a 404, so an
 * id tells nothing about whether it exists.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const donor = await requireDonor(request);
  const { db, storage } = runtime();
  const mine = await issuedReceiptOfEmail(db, donor.email, params.receiptId);
  if (!mine) return notFound();
  const found = await receiptPdfById(db, mine.id, storage);
  if (!found) return notFound();
  return new Response(new Uint8Array(found.pdf), {
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${found.filename}"`, ...NO_STORE },
  });
}
