import { redirect } from 'react-router';
import type { Route } from './+types/mobile-callback';
import { donationDeps } from '~/domain/donations/deps.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { confirmFlutterwave, recheck } from '~/domain/donations/service.server';
import { findById, findByRef } from '~/domain/donations/ledger.server';
import { log } from '~/lib/log.server';

/**
 * GET /api/donations/mobile-money/callback?tx_ref=…&transaction_id=…[&status=…] — where
 * Flutterwave's checkout sends the donor back. What the browser says settles nothing (#12): a
 * transaction id is verified with Flutterwave and counts only when it is exactly this gift's
 * (tx_ref, amount, currency); without one (the donor cancelled the checkout: `status=cancelled`),
 * our own tx_ref is asked about. A gift that nothing settled stays pending, re-checked until the
 * webhook or Flutterwave's answer on our tx_ref decides it; the donor reads that the payment is not
 * confirmed (/payment/cancel shows it so, and never cancels a Flutterwave gift).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const txRef = url.searchParams.get('tx_ref') ?? '';
  const id = url.searchParams.get('transaction_id') ?? '';
  if (!/^thv-[0-9a-f]{24}$/.test(txRef)) throw redirect('/payment/cancel', 303);
  const deps = await donationDeps(request);
  const known = await findByRef(deps.db, 'flutterwave', txRef);
  if (!known) throw redirect('/payment/cancel', 303);
  let donation = known;
  try {
    if (/^\d{1,20}$/.test(id)) donation = (await confirmFlutterwave(deps, txRef, id)) ?? known;
    else if (known.status === 'pending') {
      await recheck(deps, known);
      donation = (await findById(deps.db, known.id)) ?? known;
    }
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    log.warn('flutterwave verification failed', { donationId: known.id, error: e.message });
  }
  if (donation.status === 'succeeded') throw redirect(`/payment/success?d=${known.id}`, 303);
  throw redirect(`/payment/cancel?d=${known.id}`, 303);
}
