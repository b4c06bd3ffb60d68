import { runtime } from '~/lib/runtime.server';
import type { Route } from './+types/robots';

export function loader({ request }: Route.LoaderArgs) {
  const origin = runtime().publicUrl ?? new URL(request.url).origin;
  const body = ['User-agent: *', 'Disallow: /admin', 'Disallow: /payment/', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
}
