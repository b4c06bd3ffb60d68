import { redirect } from 'react-router';
import type { Route } from './+types/mobile-callback';
import { donationDeps } from '~/domain/donations/deps.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { confirmFlutterwave } from '~/domain/donations/service.server';
import { findByRef } from '~/domain/donations/ledger.server';
import { log } from '~/lib/log.server';

/**
 * GET /api/donations/mobile-money/callback?tx_ref=…&transaction_id=… — where the inline checkout's
 * callback sends the donor: the server verifies the transaction before /payment/success.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const txRef = url.searchParams.get('tx_ref') ?? '';
  const id = url.searchParams.get('transaction_id') ?? '';
  if (!/^thv-[0-9a-f]{24}$/.test(txRef)) throw redirect('/payment/cancel', 303);
  const deps = await donationDeps(request);
  const known = await findByRef(deps.db, 'flutterwave', txRef);
  if (!known) throw redirect('/payment/cancel', 303);
  if (!/^\d{1,20}$/.test(id)) throw redirect(`/payment/cancel?d=${known.id}`, 303);
  try {
    const donation = await confirmFlutterwave(deps, txRef, id);
    if (donation?.status === 'succeeded') throw redirect(`/payment/success?d=${known.id}`, 303);
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    log.warn('flutterwave verification failed', { error: e.message });
  }
  throw redirect(`/payment/cancel?d=${known.id}`, 303);
}
