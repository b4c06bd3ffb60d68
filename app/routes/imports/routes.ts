import type { RouteConfigEntry } from '@react-router/dev/routes';
import { route } from '@react-router/dev/routes';

/** Moving in: files of gifts imported from other tools (relative to /admin; ADR 036). */
export const adminRoutes: RouteConfigEntry[] = [route('imports', 'routes/imports/list.tsx'), route('imports/:importId', 'routes/imports/show.tsx')];
