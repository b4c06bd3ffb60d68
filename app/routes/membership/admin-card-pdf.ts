import type { Route } from './+types/admin-card-pdf';
import { memberCardFileName, memberCardPdf } from '~/domain/membership/card.server';
import { MembershipNotFoundError } from '~/domain/membership/dues.server';
import { isLang } from '~/lib/i18n';
import { runtime } from '~/lib/runtime.server';
import { trustedOrigin } from '~/lib/origin.server';
import { requireUser } from '~/routes/admin/auth.server';
import { notFound } from './admin.server';

/**
 * GET /admin/adhesions/:memberId/carte.pdf: a member's card in the member's language (ADR 039),
 * at card size, or with ?format=a4 on an A4 sheet to print and cut — for a member without an
 * e-mail address, or one who asks at the desk.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'memberships' });
  const { db, storage, secret } = runtime();
  const row = await db.selectFrom('memberships').select(['number', 'language']).where('id', '=', params.memberId).executeTakeFirst();
  if (!row) notFound();
  const lang = isLang(row.language) ? row.language : 'fr';
  const layout = new URL(request.url).searchParams.get('format') === 'a4' ? 'sheet' : 'card';
  try {
    const pdf = await memberCardPdf(db, params.memberId, lang, { storage, secret, publicUrl: trustedOrigin(request), layout });
    return new Response(new Uint8Array(pdf), {
      headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${memberCardFileName(Number(row.number), lang, layout)}"`, 'Cache-Control': 'private, no-store' },
    });
  } catch (e) {
    if (e instanceof MembershipNotFoundError) notFound();
    throw e;
  }
}
