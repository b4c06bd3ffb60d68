import { redirect } from 'react-router';
import type { Route } from './+types/logout';
import { audit } from '~/domain/audit/audit.server';
import { HOME_PATH, LOGGED_OUT_PARAM, LOGIN_PATH } from '~/domain/users/paths';
import { actorOf, currentUser, endSession } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';

/** Signing out is a POST (a link could be followed by anyone); a GET goes back to the dashboard. */
export function loader() {
  throw redirect(HOME_PATH);
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await currentUser(request, context);
  const cookie = await endSession(request, context);
  if (user) await audit(db(), actorOf(user), 'auth.logout', user.email);
  throw redirect(`${LOGIN_PATH}?${LOGGED_OUT_PARAM}=1`, { status: 303, headers: { 'Set-Cookie': cookie } });
}
