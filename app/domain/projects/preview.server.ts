import type { DB } from '~db/index';
import type { Lang } from '~/lib/i18n';
import { getDraft } from '~/domain/revisions/workflow.server';
import type { ProjectInput } from './projects';
import { PROJECT_TYPE, getProject, listActiveProjects, publicProject, type PublicProject } from './projects.server';

/** The public list's order: newest first, then by id (as `listActiveProjects` sorts). */
const before = (a: PublicProject, b: PublicProject) => a.date > b.date || (a.date === b.date && a.id > b.id);

/**
 * What "Aperçu" shows of a project on the public projects page: the active projects with this one
 * as its draft shows it (else as saved, even when it is not shown on the site), in its place in
 * the list. Undefined when the project does not exist. Only for an editor or a signed preview link
 * (the route checks).
 */
export async function previewProjects(db: DB, id: string, lang: Lang): Promise<PublicProject[] | undefined> {
  const live = await getProject(db, id);
  if (!live) return undefined;
  const draft = await getDraft(db, { type: PROJECT_TYPE, id });
  const shown = publicProject({ ...live, ...(draft?.snapshot as unknown as ProjectInput | undefined), id }, lang);
  const others = (await listActiveProjects(db, lang)).filter((p) => p.id !== id);
  const at = others.findIndex((p) => before(shown, p));
  return at === -1 ? [...others, shown] : [...others.slice(0, at), shown, ...others.slice(at)];
}
