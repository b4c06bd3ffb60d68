import type { DB } from '~db/index';
import { PUBLISHED } from '~/domain/blog/posts';
import { MANAGED_PAGES } from '~/domain/content/pages';
import { succeededEurCentsSince } from '~/domain/donations/ledger.server';

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

/** Euros given since `since`: succeeded (not refunded) donations of the ledger, at their EUR value. */
export async function donationsSinceEur(db: DB, since: string): Promise<number> {
  return (await succeededEurCentsSince(db, since)) / 100;
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
