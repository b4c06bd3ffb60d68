// `npm start`: builds when the build is missing or older than the sources, then serves the site.
// First of all, a Node.js too old for the site stops here with one sentence (scripts/check-node.cjs).
// In production and containers, build once (`npm run build`) and run `node server.js` instead: the
// same checks, no build, and no npm process kept beside the server (README, "Run it").
import { exitIfUnsupported } from './check-node.cjs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildState } from './build-state.js';

exitIfUnsupported();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (buildState(root) !== 'fresh') {
  console.log('Building the site…');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// server.js checks the build again and warns: told it has just been checked, it does not.
process.env.THV_BUILD_CHECKED = '1';
await import(path.join(root, 'server.js'));
