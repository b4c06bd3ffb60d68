import { redirect } from 'react-router';
import type { Route } from './+types/mobile-callback';
import { donationDeps } from '~/domain/donations/deps.server';
import { payerReturn } from '~/domain/donations/returns.server';
import { DEFAULT_LANG, isLang, sitePath } from '~/lib/lang-path';
import { inRequestLang } from '~/lib/i18n.server';

/**
 * GET /api/donations/mobile-money/callback?tx_ref=…&transaction_id=…[&status=…] — where the mobile
 * money checkout sends the donor back. What the browser says settles nothing (#12): the one road
 * back (returns.server.ts) verifies a named transaction with the provider and counts it only when it
 * is exactly this gift's (reference, amount, currency); without one (the donor cancelled the
 * checkout) our own reference is asked about. A gift that nothing settled stays pending, re-checked
 * until the webhook or the provider's answer on our reference decides it; the donor reads that the
 * payment is not confirmed (/payment/cancel shows it so, and never cancels such a gift).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { payment } = await payerReturn(await donationDeps(request), new URL(request.url).searchParams);
  if (!payment) throw redirect(inRequestLang(request, '/payment/cancel'), 303);
  const lang = isLang(payment.language) ? payment.language : DEFAULT_LANG;
  throw redirect(sitePath(lang, payment.status === 'succeeded' ? `/payment/success?d=${payment.id}` : `/payment/cancel?d=${payment.id}`), 303);
}
