import { redirect } from 'react-router';
import type { Route } from './+types/one-click';
import { isOneClickBody, leaveWithToken } from '~/domain/letters/leaving.server';
import { inRequestLang } from '~/lib/i18n.server';
import { db, runtime } from '~/lib/runtime.server';

/**
 * /lettre/desabonnement/:token/un-clic, the https address of every letter's List-Unsubscribe
 * header (RFC 8058). A mail client's POST with `List-Unsubscribe=One-Click` unsubscribes at once
 * and answers 200, the same for a repeat; a GET (a client opening the address in a browser, a
 * scanner) goes to the page with the button and changes nothing.
 */
export function loader({ request, params }: Route.LoaderArgs) {
  return redirect(inRequestLang(request, `/lettre/desabonnement/${encodeURIComponent(params.token)}`), 303);
}

const text = (body: string, status: number) => new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });

export async function action({ request, params }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  if (!isOneClickBody(form)) return text('Expected List-Unsubscribe=One-Click', 400);
  const left = await leaveWithToken(db(), runtime().secret, params.token, 'one-click');
  return left ? text('Unsubscribed', 200) : text('Unknown link', 404);
}
