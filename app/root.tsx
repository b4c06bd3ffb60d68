import { useMemo } from 'react';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useMatches, useRouteLoaderData } from 'react-router';
import type { Route } from './+types/root';
import stylesheet from './app.css?url';
import { DEFAULT_LANG, I18nContext, makeI18n, messagesOf } from '~/lib/i18n';
import { messagesFor, detectLang } from '~/lib/i18n.server';
import { hydratesHandles, hydratesPath } from '~/lib/hydration';
import { useNonce } from '~/lib/nonce';
import { runtime } from '~/lib/runtime.server';
import { AdminErrorPage } from '~/ui/admin/AdminErrorPage';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ request }: Route.LoaderArgs) {
  const { lang } = detectLang(request);
  const url = new URL(request.url);
  const origin = runtime().publicUrl ?? url.origin;
  // Public pages render with the server's messages (messagesOf) and send none (ADR 017).
  const messages = hydratesPath(url.pathname) ? messagesFor(lang) : undefined;
  return { lang, messages, origin, siteScript: runtime().assets.site };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const nonce = useNonce() || undefined;
  const hydrate = hydratesHandles(useMatches().map((m) => m.handle));
  return (
    <html lang={data?.lang ?? DEFAULT_LANG}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#c2410c" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-white font-sans antialiased">
        {children}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : (
          data?.siteScript && <script type="module" src={data.siteScript} nonce={nonce} />
        )}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const i18n = useMemo(() => makeI18n(loaderData.lang, messagesOf(loaderData.lang, loaderData.messages)), [loaderData.lang, loaderData.messages]);
  return (
    <I18nContext.Provider value={i18n}>
      <Outlet />
    </I18nContext.Provider>
  );
}

// The root loader itself failed: the error page still needs words.
const messagesFallback = { notFound: { title: 'Page introuvable', text: '', home: 'Accueil' }, error: { title: 'Une erreur est survenue', text: 'Veuillez réessayer dans quelques instants.' } } as unknown as Parameters<typeof makeI18n>[1];

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<typeof loader>('root');
  // Only the back office refuses (403), from its guard middleware, whose errors React Router
  // renders here: its page is in French like the rest of the back office.
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <main id="main" className="min-h-screen bg-gray-50">
        <AdminErrorPage status={403} />
      </main>
    );
  }
  const i18n = makeI18n(data?.lang ?? DEFAULT_LANG, data ? messagesOf(data.lang, data.messages) : messagesFallback);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // On the server, entry.server's handleError logs real failures (redacted, with the request id);
  // a refusal (4xx) is not an error.
  if (typeof document !== 'undefined' && !isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="mx-auto max-w-xl px-6 py-24 text-center">
      <h1 className="text-3xl font-bold">{notFound ? i18n.t('notFound.title') : i18n.t('error.title')}</h1>
      <p className="mt-4 text-gray-700">{notFound ? i18n.t('notFound.text') : i18n.t('error.text')}</p>
      <a href="/" className="mt-8 inline-block rounded-md bg-brand-700 px-5 py-3 font-semibold text-white">
        {i18n.t('notFound.home')}
      </a>
    </main>
  );
}
