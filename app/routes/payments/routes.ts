import type { RouteConfigEntry } from '@react-router/dev/routes';

/** Donations: admin screens (relative to /admin) and public callbacks/webhooks (absolute). */
export const adminRoutes: RouteConfigEntry[] = [];
export const publicRoutes: RouteConfigEntry[] = [];
