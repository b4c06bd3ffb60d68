import { route, type RouteConfigEntry } from '@react-router/dev/routes';

/** The media library: the media issue. Paths are relative to /admin; files relative to app/. */
export const routes: RouteConfigEntry[] = [
  route('media', 'routes/admin/media/list.tsx'),
  // Resource routes: the upload (one request per file from the screen and the picker) and the picker's list.
  route('media/televerser', 'routes/admin/media/upload.ts'),
  route('media/bibliotheque', 'routes/admin/media/library.ts'),
  route('media/:mediaId/supprimer', 'routes/admin/media/delete.tsx'),
];
