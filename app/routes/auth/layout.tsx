import { Outlet, useMatches } from 'react-router';
import type { Route } from './+types/layout';
import type { RouteHandle } from '~/lib/hydration';
import { originGuard } from '~/lib/origin.server';
import { AdminToasts } from '~/ui/admin/AdminToasts';
import type { ServerToast } from '~/ui/site/ToastRegion';

/** Sign-in, first-run setup, invitation and password reset: no session needed, same-origin posts only. */
export const middleware: Route.MiddlewareFunction[] = [originGuard];

export const handle: RouteHandle = { hydrate: true };

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' });

export default function AuthLayout() {
  // A toast the page's loader or action knows of (shown as HTML before JavaScript runs).
  const toast = useMatches()
    .map((m) => (m.loaderData as { toast?: ServerToast } | undefined)?.toast)
    .find(Boolean);
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-gray-100 px-4 py-12">
      <main id="main" className="w-full max-w-md rounded-xl bg-white p-8 shadow-md">
        <p className="mb-6 text-center text-sm font-semibold uppercase tracking-wide text-brand-700">Fondation THV · Administration</p>
        <Outlet />
      </main>
      <p className="mt-6 text-sm">
        <a href="/" className="rounded text-gray-700 underline">
          Retour au site
        </a>
      </p>
      <AdminToasts toast={toast} />
    </div>
  );
}
