import { Link, Outlet, isRouteErrorResponse, useRouteError, useRouteLoaderData } from 'react-router';
import type { Route } from './+types/layout';
import type { RouteHandle } from '~/root';
import { HOME_PATH } from '~/domain/users/paths';
import { adminGuard, requireUser } from '~/lib/auth.server';
import { AdminShell } from '~/ui/admin/AdminShell';
import { AdminToasts } from '~/ui/admin/AdminToasts';

/** Every page and action under /admin (but sign-in flows) passes the guard: session, role, origin. */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

export const handle: RouteHandle = { hydrate: true };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return { user: { name: user.name, role: user.role } };
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

const ERRORS: Record<number, { title: string; text: string }> = {
  403: { title: 'Accès refusé', text: "Votre rôle ne permet pas d'ouvrir cette page." },
  404: { title: 'Page introuvable', text: "Cette page du tableau de bord n'existe pas." },
};

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>('routes/admin/layout');
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 500) console.error(error);
  const { title, text } = ERRORS[status] ?? { title: 'Une erreur est survenue', text: 'Veuillez réessayer dans quelques instants.' };
  const body = (
    <div className="mx-auto max-w-xl py-12 text-center" data-testid="admin-error" data-status={status}>
      <h1 className="text-3xl font-bold text-gray-900">{title}</h1>
      <p className="mt-4 text-gray-700">{text}</p>
      <Link to={HOME_PATH} className="mt-8 inline-flex min-h-11 items-center rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white">
        Retour au tableau de bord
      </Link>
    </div>
  );
  return data ? <AdminShell user={data.user}>{body}</AdminShell> : <main id="main" className="min-h-screen bg-gray-50 px-4">{body}</main>;
}
