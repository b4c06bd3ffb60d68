import type { Selectable } from 'kysely';
import type { DB } from '~db/index';
import type { ProjectTable } from '~db/schema';
import { localized, type Lang } from '~/lib/i18n';
import { sanitizeRichHtml } from '~/lib/sanitize.server';
import type { Project, ProjectInput, ProjectStatus } from './projects';
import { audit, type Actor } from '~/domain/audit/audit.server';
import type { Paged } from '~/domain/content/forms';
import { contains, newId, pageOf, updateVersioned } from '~/domain/content/store.server';
import type { Snapshot } from '~/domain/revisions/editorial';
import { deleteHistory, recordBaseline, recordRevision } from '~/domain/revisions/revisions.server';

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

/** A project as the public projects page shows it, in one language (French where a value is empty). */
export function publicProject(p: ProjectInput & { id: string }, lang: Lang) {
  return {
    id: p.id,
    image: p.image,
    date: p.date,
    location: p.location,
    status: p.status,
    title: localized(p.translations, lang, 'title'),
    description: sanitizeRichHtml(localized(p.translations, lang, 'description')),
  };
}

export type PublicProject = ReturnType<typeof publicProject>;

/** Active projects, newest first, in one language (French where a value is empty). */
export async function listActiveProjects(db: DB, lang: Lang, limit?: number): Promise<PublicProject[]> {
  let query = db.selectFrom('projects').selectAll().where('active', '=', 1).orderBy('date', 'desc').orderBy('id', 'desc');
  if (limit) query = query.limit(limit);
  const rows = await query.execute();
  return rows.map(toProject).map((p) => publicProject(p, lang));
}

// ---- Back office -------------------------------------------------------------------------------

export type { ProjectInput };

/** The stored columns of a project's editable fields (texts trimmed, rich text sanitized). */
export function clean(input: ProjectInput) {
  const translations = Object.fromEntries(
    Object.entries(input.translations).map(([lang, t]) => [lang, { title: t.title.trim(), description: sanitizeRichHtml(t.description) }]),
  );
  return {
    image: input.image,
    date: input.date,
    location: input.location,
    status: input.status,
    active: input.active ? 1 : 0,
    translations: JSON.stringify(translations),
  };
}

/** Every project (active or not), newest first, a page at a time, searched in location and texts. */
export async function listProjectsPage(db: DB, { q, page }: { q: string; page: number }): Promise<Paged<Project>> {
  const base = db.selectFrom('projects').$if(q !== '', (qb) => qb.where((eb) => eb.or([contains('location', q), contains('translations', q)])));
  return pageOf(
    page,
    q,
    async () => (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
    async (limit, offset) => (await base.selectAll().orderBy('date', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()).map(toProject),
  );
}

export async function getProject(db: DB, id: string): Promise<Project | undefined> {
  const row = await db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toProject(row) : undefined;
}

export const PROJECT_TYPE = 'project';

/** A project's editable fields as the editorial workflow keeps them (revisions). */
export function projectSnapshot(p: Project): Snapshot {
  const input: ProjectInput = { image: p.image, date: p.date, location: p.location, status: p.status, active: p.active, translations: p.translations };
  return { ...input };
}

export async function createProject(db: DB, actor: Actor, input: ProjectInput): Promise<Project> {
  return db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const row = await trx
      .insertInto('projects')
      .values({ id: newId(), ...clean(input), version: 1, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    const project = toProject(row);
    await audit(trx, actor, 'project.create', projectLabel(project), { id: project.id });
    await recordRevision(trx, { type: PROJECT_TYPE, id: project.id }, projectSnapshot(project), actor, 'create');
    return project;
  });
}

export type UpdateResult = { project: Project } | { error: 'notFound' | 'conflict' };

/** Writes these columns over the project at `version`, with its revision and audit entry, in one transaction. */
function writeProject(
  db: DB,
  actor: Actor,
  id: string,
  version: number,
  values: Partial<ReturnType<typeof clean>>,
  record: { action: string; kind: 'save' | 'publish'; details?: Record<string, unknown> },
): Promise<UpdateResult> {
  return db.transaction().execute(async (trx) => {
    const before = await getProject(trx, id);
    if (before) await recordBaseline(trx, { type: PROJECT_TYPE, id }, projectSnapshot(before));
    const result = await updateVersioned(trx, 'projects', id, version, values);
    if (result !== 'ok') return { error: result };
    const project = toProject(await trx.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    await audit(trx, actor, record.action, projectLabel(project), { id, ...record.details });
    await recordRevision(trx, { type: PROJECT_TYPE, id }, projectSnapshot(project), actor, record.kind);
    return { project };
  });
}

export function updateProject(db: DB, actor: Actor, id: string, input: ProjectInput, version: number): Promise<UpdateResult> {
  return writeProject(db, actor, id, version, clean(input), { action: 'project.update', kind: 'save' });
}

/** The list's "Visible" switch: shows or hides the project at once (a draft, if any, stays a draft). */
export function setProjectActive(db: DB, actor: Actor, id: string, active: boolean, version: number): Promise<UpdateResult> {
  return writeProject(db, actor, id, version, { active: active ? 1 : 0 }, { action: 'project.visibility', kind: active ? 'publish' : 'save', details: { active } });
}

export async function deleteProject(db: DB, actor: Actor, id: string): Promise<Project | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('projects').where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return undefined;
    const project = toProject(row);
    await audit(trx, actor, 'project.delete', projectLabel(project), { id });
    await deleteHistory(trx, { type: PROJECT_TYPE, id });
    return project;
  });
}

export function projectLabel(p: Project): string {
  return p.translations.fr?.title || p.id;
}
