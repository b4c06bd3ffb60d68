import { Outlet, isRouteErrorResponse, useRouteError, useRouteLoaderData } from 'react-router';
import type { Route } from './+types/layout';
import type { RouteHandle } from '~/lib/hydration';
import { adminGuard, grantedAreas, requireUser } from '~/routes/admin/auth.server';
import { AdminErrorPage } from '~/ui/admin/AdminErrorPage';
import { AdminShell } from '~/ui/admin/AdminShell';
import { AdminToasts } from '~/ui/admin/AdminToasts';

/** Every page and action under /admin (but sign-in flows) passes the guard: session, role, origin. */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

export const handle: RouteHandle = { hydrate: true };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return { user: { name: user.name, role: user.role, granted: await grantedAreas(user.role) } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Administration | Fondation THV' }, { name: 'robots', content: 'noindex' }];

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <AdminShell user={loaderData.user}>
        <Outlet />
      </AdminShell>
      <AdminToasts />
    </>
  );
}

/** Errors of the screens below (404, 500) keep the menu; a refusal by the guard is drawn by root.tsx. */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>('routes/admin/layout');
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // In the browser, for whoever debugs; on the server the error is already in the log (redacted,
  // with the request id: entry.server.tsx), and a raw copy there would bypass both.
  if (status === 500 && typeof document !== 'undefined') console.error(error);
  const body = <AdminErrorPage status={status} />;
  return data ? <AdminShell user={data.user}>{body}</AdminShell> : <main id="main" className="min-h-screen bg-gray-50">{body}</main>;
}
