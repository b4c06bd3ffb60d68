// `npm run lighthouse`: Lighthouse (mobile emulation, Debian's Chromium) on the public pages that
// carry the budgets (home, a project list, a post, the donate page…), against the production build on a fresh data directory. Prints the four category scores
// per page and writes them to bench/results/lighthouse.md. Exits non-zero when a page is below the
// goals: performance 95, accessibility, best practices and SEO 100.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3320);
const PAGES = process.env.LIGHTHOUSE_PAGES?.split(',') ?? ['/', '/a-propos', '/blog/1', '/contact', '/faire-un-don', '/devenir-membre', '/campagnes/un-puits-a-kaya'];
const GOALS = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 };

if (!process.env.BENCH_SKIP_BUILD) {
  const b = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-lighthouse-'));
const server = spawn(process.execPath, ['server.js'], {
  cwd: root,
  env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
for (let i = 0; i < 200; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${PORT}/healthz`)).ok) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 100));
}

// A fresh site has no campaign: one, with a goal, suggested amounts and a story, for /campagnes/{slug}.
{
  const { default: SQLite } = await import('better-sqlite3');
  const sqlite = new SQLite(path.join(dataDir, 'site.sqlite'));
  const now = new Date().toISOString();
  const t = (title) => ({ title, summary: 'Un puits pour 2 000 habitants.', story: '<p>Le village de Kaya attend un puits depuis dix ans. Chaque jour, les enfants marchent deux heures pour chercher de l’eau.</p>' });
  sqlite
    .prepare('insert into campaigns (id, slug, status, image, goal_cents, starts_on, ends_on, project_id, translations, amounts, version, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)')
    .run('lighthouse', 'un-puits-a-kaya', 'active', '', 1_500_000, null, null, null, JSON.stringify({ fr: t('Un puits à Kaya'), en: t('A well in Kaya'), es: t('Un pozo en Kaya') }), JSON.stringify([{ cents: 2500, impact: { fr: 'un kit scolaire', en: 'a school kit', es: 'un kit escolar' } }]), now, now);
  sqlite.close();
}

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const rows = [];
let failed = false;
try {
  for (const page of PAGES) {
    const url = `http://localhost:${PORT}${page}`;
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: Object.keys(GOALS) });
    const lhr = result.lhr;
    if (lhr.runtimeError) console.log(`${page}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const scores = Object.fromEntries(Object.keys(GOALS).map((k) => [k, Math.round((lhr.categories[k]?.score ?? 0) * 100)]));
    const below = Object.entries(GOALS).filter(([k, goal]) => scores[k] < goal);
    if (below.length) {
      failed = true;
      for (const [k] of below) {
        const audits = lhr.categories[k].auditRefs
          .map((ref) => lhr.audits[ref.id])
          .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
          .map((a) => `${a.id} (${a.displayValue ?? a.explanation ?? a.score})`);
        console.log(`  ${page} ${k}: ${audits.join(', ')}`);
      }
    }
    rows.push({ page, ...scores, lcp: lhr.audits['largest-contentful-paint'].displayValue, cls: lhr.audits['cumulative-layout-shift'].displayValue, tbt: lhr.audits['total-blocking-time'].displayValue });
    console.log(rows.at(-1));
  }
} finally {
  await chrome.kill();
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const table = [
  `Lighthouse (mobile emulation), ${new Date().toISOString().slice(0, 10)}`,
  '',
  '| page | performance | accessibility | best practices | SEO | LCP | CLS | TBT |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map((r) => `| ${r.page} | ${r.performance} | ${r.accessibility} | ${r['best-practices']} | ${r.seo} | ${r.lcp} | ${r.cls} | ${r.tbt} |`),
].join('\n');
console.log(`\n${table}`);
fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench', 'results', 'lighthouse.md'), `${table}\n`);
process.exit(failed ? 1 : 0);
