// The container image's server and commands bundled with their dependencies, then node_modules cut
// down to what the bundles still load (Containerfile, ADR 020). Run in the image's build stage after
// `npm run build`; never on a developer's or server's checkout (it replaces build/server and deletes
// most of node_modules, development dependencies included).
//   build/server/index.js   the server (what server.js imports), from React Router's build
//   build/cli/backup.js     `node build/cli/backup.js [FILE]`, from scripts/backup.ts
//   build/cli/restore.js    `node build/cli/restore.js FILE`, from scripts/restore.ts
//   build/chunks/           what they share and what they load lazily (mjml, pdfkit, the S3 client…)
// Left in node_modules, with their own dependencies: the packages that load their own files by paths
// a bundle cannot follow: native binaries (sharp, better-sqlite3, @node-rs/argon2) and pdfkit (its
// standard fonts through `createRequire(import.meta.url)('#standard-fonts/…')`, its ICC profile
// by URL). tests/container/run.sh renders a PDF, an image and a letter in the image.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';

const KEPT = ['sharp', 'better-sqlite3', '@node-rs/argon2', 'pdfkit'];
// Never installed, and only asked for in paths this site does not take: pg's optional native
// binding (`new pg.native.Client`) and cosmiconfig's loader for TypeScript configuration files.
const ABSENT = ['pg-native', 'typescript'];

const root = process.cwd();
const out = path.join(root, 'build', '.bundle');
fs.rmSync(out, { recursive: true, force: true });
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { 'server/index': 'build/server/index.js', 'cli/backup': 'scripts/backup.ts', 'cli/restore': 'scripts/restore.ts' },
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  external: [...KEPT, ...ABSENT],
  // CommonJS packages inside an ES module bundle call require() for Node's own modules.
  banner: { js: "import { createRequire as __thvCreateRequire } from 'node:module'; const require = __thvCreateRequire(import.meta.url);" },
  metafile: true,
  logLevel: 'warning',
});

// Every package a bundle imports at run time, then what those need (dependencies, optional ones
// when installed), resolved from node_modules as Node resolves them.
const builtin = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const wanted = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const i of output.imports) {
    if (!i.external || builtin.has(i.path) || i.path.startsWith('.')) continue;
    wanted.add(packageOf(i.path));
  }
}
const kept = new Set();
function keep(fromDir, name) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) {
      if (kept.has(candidate)) return;
      kept.add(candidate);
      const pkg = JSON.parse(fs.readFileSync(path.join(candidate, 'package.json'), 'utf8'));
      for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) keep(candidate, dep);
      return;
    }
    if (dir === root) return; // not installed (an optional dependency for another platform)
  }
}
for (const name of wanted) if (!ABSENT.includes(name)) keep(root, name);

// Everything else in node_modules goes (a kept package's own nested node_modules stays whole).
const nm = path.join(root, 'node_modules');
for (const entry of fs.readdirSync(nm)) {
  const full = path.join(nm, entry);
  if (entry.startsWith('@')) {
    for (const sub of fs.readdirSync(full)) if (!kept.has(path.join(full, sub))) fs.rmSync(path.join(full, sub), { recursive: true, force: true });
    if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
  } else if (!kept.has(full)) {
    fs.rmSync(full, { recursive: true, force: true });
  }
}

for (const dir of ['server', 'cli', 'chunks']) {
  fs.rmSync(path.join(root, 'build', dir), { recursive: true, force: true });
  fs.renameSync(path.join(out, dir), path.join(root, 'build', dir));
}
fs.rmSync(out, { recursive: true, force: true });
console.log(`image-bundle: ${Object.keys(result.metafile.outputs).length} files in build/{server,cli,chunks}; node_modules keeps ${[...kept].map((p) => path.relative(nm, p)).sort().join(', ')}`);
