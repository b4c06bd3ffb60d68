/** A message's `{name}` placeholders filled from `vars` (one left as it is when `vars` has no such name). Shared with the browser. */
export function interpolate(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}
