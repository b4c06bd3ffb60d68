import type { DB } from '~db/index';
import { PUBLISHED } from '~/domain/blog/posts';
import { MANAGED_PAGES } from '~/domain/content/pages';

export interface DashboardStats {
  managedPages: number;
  activeProjects: number;
  publishedPosts: number;
  /** Succeeded donations since the first day of this calendar month (UTC), in EUR. */
  donationsThisMonthEur: number;
}

/** The first instant of the calendar month holding `now` (UTC), as ISO text. */
export function monthStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/**
 * The month's donations in EUR. There is no donations ledger yet (the donations issue adds it and
 * replaces this body with the sum of its succeeded rows since `since`): nothing was given, so 0.
 */
export async function donationsSinceEur(_db: DB, _since: string): Promise<number> {
  return 0;
}

export async function dashboardStats(db: DB, now = new Date()): Promise<DashboardStats> {
  const [projects, posts, donations] = await Promise.all([
    db.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n')).where('active', '=', 1).executeTakeFirstOrThrow(),
    db.selectFrom('blog_posts').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', PUBLISHED).executeTakeFirstOrThrow(),
    donationsSinceEur(db, monthStart(now)),
  ]);
  return {
    managedPages: MANAGED_PAGES.length,
    activeProjects: Number(projects.n),
    publishedPosts: Number(posts.n),
    donationsThisMonthEur: donations,
  };
}
