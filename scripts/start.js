// `npm start`: builds when the build is missing or older than the sources, then serves the site.
// First of all, a Node.js too old for the site stops here with one sentence (scripts/check-node.cjs).
import { exitIfUnsupported } from './check-node.cjs';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

exitIfUnsupported();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'build', '.stamp');
const sources = ['app', 'server', 'db', 'public', 'package.json', 'vite.config.ts', 'react-router.config.ts', 'scripts/build.js'];

function newest(p) {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
if (!built || sources.some((s) => newest(s) > built)) {
  console.log('Building the site…');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import(path.join(root, 'server.js'));
