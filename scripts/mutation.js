// `npm run test:mutation [-- [--force] file …]`: mutation testing (StrykerJS + Vitest, ADR 011), one module at
// a time so each mutant runs only the few tests that cover it, incrementally (a module whose code
// and tests did not change is not mutated again). Reports per module in reports/mutation/ (ignored);
// prints one score per module and fails when one is under 90 %. Not part of `npm test`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Stryker } from '@stryker-mutator/core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const config = JSON.parse(fs.readFileSync(path.join(root, 'stryker.config.json'), 'utf8'));
const TARGET = 90;

// The modules: the config's `mutate` globs, one file each (or the files named on the command line).
const excluded = new Set(config.mutate.filter((g) => g.startsWith('!')).flatMap((g) => fs.globSync(g.slice(1))));
// --force: mutate every mutant again. Incremental runs miss what a new test kills in a static
// mutant (a module-level constant), so record scores after adding tests with --force.
const force = process.argv.includes('--force');
const files = process.argv.slice(2).filter((a) => a !== '--force');
const modules = files.length
  ? files
  : [...new Set(config.mutate.filter((g) => !g.startsWith('!')).flatMap((g) => fs.globSync(g)))].filter((f) => !excluded.has(f) && !/\.test\.tsx?$/.test(f)).sort();

const DETECTED = new Set(['Killed', 'Timeout']);
const INVALID = new Set(['Ignored', 'CompileError', 'RuntimeError']);
const rows = [];
for (const file of modules) {
  const slug = file.replace(/[/.]/g, '_');
  let results;
  try {
    results = await new Stryker({
      mutate: [file],
      force,
      incrementalFile: `reports/mutation/${slug}.incremental.json`,
      htmlReporter: { fileName: `reports/mutation/${slug}.html` },
      jsonReporter: { fileName: `reports/mutation/${slug}.json` },
      reporters: ['clear-text', 'html', 'json'],
    }).runMutationTest();
  } catch (e) {
    console.error(`${file}: Stryker failed: ${e instanceof Error ? e.message : String(e)}`);
    rows.push({ file, score: 0, detected: 0, valid: 0, disabled: 0 });
    continue;
  }
  const valid = results.filter((r) => !INVALID.has(r.status));
  const detected = valid.filter((r) => DETECTED.has(r.status)).length;
  const score = valid.length ? (100 * detected) / valid.length : 100;
  rows.push({ file, score, detected, valid: valid.length, disabled: results.filter((r) => r.status === 'Ignored').length });
}
// As rows of docs/mutation-testing.md's table (it keeps the latest scores with their date).
const day = new Date().toISOString().slice(0, 10);
console.log('\n| Module | Score | Killed / valid mutants | Disabled in place | Date |\n| --- | --- | --- | --- | --- |');
for (const r of rows) console.log(`| \`${r.file}\` | ${r.score.toFixed(2)} % | ${r.detected} / ${r.valid} | ${r.disabled} | ${day} |`);
const low = rows.filter((r) => r.score < TARGET);
if (low.length) {
  console.log(`\nUnder ${TARGET} %: ${low.map((r) => r.file).join(', ')}`);
  process.exit(1);
}
