import type { DB } from '~db/index';

export interface Partner {
  id: string;
  name: string;
  logoUrl: string;
  website: string;
}

export async function listPartners(db: DB): Promise<Partner[]> {
  const rows = await db.selectFrom('partners').selectAll().orderBy('position').orderBy('created_at').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, logoUrl: r.logo_url, website: r.website }));
}
