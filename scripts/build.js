// Builds everything `npm start` serves: the React Router app (client and server, with our Express
// app as the server entry) and the small enhancement script of the public pages (ADR 003).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'node_modules', '.bin', 'react-router');

const result = spawnSync(bin, ['build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
if (result.status !== 0) process.exit(result.status ?? 1);

const out = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { site: 'app/enhance/site.ts', donate: 'app/enhance/donate.ts', fees: 'app/enhance/fees.ts' },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  outdir: 'build/client/assets',
  entryNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
});
const manifest = {};
for (const [file, info] of Object.entries(out.metafile.outputs)) {
  if (info.entryPoint) manifest[path.basename(info.entryPoint, '.ts')] = `/assets/${path.basename(file)}`;
}
fs.writeFileSync(path.join(root, 'build', 'enhance-manifest.json'), JSON.stringify(manifest, null, 2));
fs.writeFileSync(path.join(root, 'build', '.stamp'), new Date().toISOString());
console.log('enhancement scripts:', manifest);
