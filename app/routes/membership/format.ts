/** A Paris day as French readers write it (31/12/2026); '—' for none. Shared by loaders and pages. */
export const dayFr = (day: string | null) => (day ? day.split('-').reverse().join('/') : '—');
