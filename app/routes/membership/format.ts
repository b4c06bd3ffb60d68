/** A Paris day as French readers write it (31/12/2026); '—' for none. Shared by loaders and pages. */
export { dayFr } from '~/lib/paris';
