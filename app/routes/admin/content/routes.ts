import type { RouteConfigEntry } from '@react-router/dev/routes';

/** Content screens (pages, projects, blog, partners, settings, messages): the content issue. Paths are relative to /admin; files relative to app/. */
export const routes: RouteConfigEntry[] = [];
