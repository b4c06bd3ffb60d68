import { data } from 'react-router';
import type { Route } from './+types/admin-preview';
import { footerOf, getLetter, letterMail } from '~/domain/letters/letters.server';
import { isLang } from '~/lib/i18n';
import { trustedOrigin } from '~/lib/origin.server';
import { db, runtime } from '~/lib/runtime.server';
import { requireUser } from '~/routes/admin/auth.server';

/**
 * /admin/lettres/:id/apercu/:lang: the letter's HTML as a reader of that language receives it
 * (its unsubscribe link names nobody). Its own CSP: the mail's inline styles, no script at all.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'letters' });
  const letter = await getLetter(db(), params.id);
  if (!letter || !isLang(params.lang)) throw data('Lettre introuvable', { status: 404 });
  const origin = trustedOrigin(request) ?? new URL(request.url).origin;
  const mail = await letterMail(letter, { id: 'apercu', email: '', language: params.lang }, { origin, appSecret: runtime().secret }, await footerOf(db()));
  return new Response(mail.html, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    },
  });
}
