import type { RouteConfigEntry } from '@react-router/dev/routes';

/** The media library: the media issue. Paths are relative to /admin; files relative to app/. */
export const routes: RouteConfigEntry[] = [];
