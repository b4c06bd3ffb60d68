import type { Selectable } from 'kysely';
import type { DB } from '~db/index';
import type { ProjectTable } from '~db/schema';
import { localized, type Lang } from '~/lib/i18n';
import { sanitizeRichHtml } from '~/lib/sanitize.server';
import type { Project, ProjectStatus } from './projects';

export function toProject(row: Selectable<ProjectTable>): Project {
  return {
    id: row.id,
    image: row.image,
    date: row.date,
    location: row.location,
    status: row.status as ProjectStatus,
    active: row.active === 1,
    translations: JSON.parse(row.translations),
    version: row.version,
  };
}

/** Active projects, newest first, in one language (French where a value is empty). */
export async function listActiveProjects(db: DB, lang: Lang, limit?: number) {
  let query = db.selectFrom('projects').selectAll().where('active', '=', 1).orderBy('date', 'desc').orderBy('id', 'desc');
  if (limit) query = query.limit(limit);
  const rows = await query.execute();
  return rows.map(toProject).map((p) => ({
    id: p.id,
    image: p.image,
    date: p.date,
    location: p.location,
    status: p.status,
    title: localized(p.translations, lang, 'title'),
    description: sanitizeRichHtml(localized(p.translations, lang, 'description')),
  }));
}
