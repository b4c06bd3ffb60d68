import type { Route } from './+types/member-card';
import { memberCardFileName, memberCardPdf } from '~/domain/membership/card.server';
import { membershipOfEmail } from '~/domain/membership/space.server';
import { detectLang } from '~/lib/i18n.server';
import { trustedOrigin } from '~/lib/origin.server';
import { runtime } from '~/lib/runtime.server';
import { NO_STORE, requireDonor } from './session.server';

/**
 * GET /mon-espace/carte/:membershipId: the signed-in member's own member card, as a PDF in the
 * page's language (ADR 021): card-size, or with ?format=a4 on an A4 sheet to cut (ADR 039). Another person's, or an unknown id, is a 404 alike.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const donor = await requireDonor(request);
  const { db, storage, secret } = runtime();
  const mine = await membershipOfEmail(db, donor.email, params.membershipId);
  if (!mine) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain', ...NO_STORE } });
  const { lang } = detectLang(request);
  const layout = new URL(request.url).searchParams.get('format') === 'a4' ? 'sheet' : 'card';
  const pdf = await memberCardPdf(db, mine.id, lang, { storage, secret, publicUrl: trustedOrigin(request), layout });
  return new Response(new Uint8Array(pdf), {
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${memberCardFileName(mine.number, lang, layout)}"`, ...NO_STORE },
  });
}
