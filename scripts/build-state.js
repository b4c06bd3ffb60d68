// Whether the build `node server.js` serves is there, and whether it is older than the sources it
// was made from. `npm start` (scripts/start.js) builds when it is not fresh; `node server.js`, the
// command for production and containers, never builds (a container's root may be read-only): it
// stops when there is no build and warns when the sources changed since (README, "Run it").
import fs from 'node:fs';
import path from 'node:path';

/** What a build is made from: a change to any of these makes it stale. */
const SOURCES = ['app', 'server', 'db', 'public', 'package.json', 'vite.config.ts', 'react-router.config.ts', 'scripts/build.js'];

function newest(root, p) {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) max = Math.max(max, newest(root, path.join(p, entry)));
  return max;
}

/** 'missing' (never built), 'stale' (a source is newer than the build) or 'fresh'. */
export function buildState(root) {
  const stamp = path.join(root, 'build', '.stamp');
  if (!fs.existsSync(stamp) || !fs.existsSync(path.join(root, 'build', 'server', 'index.js'))) return 'missing';
  const built = fs.statSync(stamp).mtimeMs;
  return SOURCES.some((s) => newest(root, s) > built) ? 'stale' : 'fresh';
}
