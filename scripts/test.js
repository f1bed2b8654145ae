#!/usr/bin/env node
// Runs every test file under test/ with Node's own test runner (TypeScript through tsx). Arguments narrow
// the run to files whose path contains them: `npm test -- publish`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function findTests(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const filters = process.argv.slice(2);
const files = findTests('test')
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
// The runtime, first in the log (CI's included): ./run puts Node 24 first on PATH.
console.log(`# Node.js ${process.version} (${process.execPath}), ${files.length} test files`);
// Each run's report also goes to a file, so that its failures (with their errors) can be printed again at the very
// end: a CI log is often read from its tail, which the second run would otherwise fill.
const failures = [];
const run = (list, env = process.env) => {
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-report-')), 'spec.txt');
  const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=spec', `--test-reporter-destination=${report}`];
  // A test that hangs fails after 20 minutes instead of holding CI to its limit. (Not --test-force-exit: a file
  // exits as soon as the tests known so far are done, dropping those registered after a top-level await.)
  const limits = ['--test-timeout=1200000'];
  const status = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...limits, ...reporters, ...list], { stdio: 'inherit', env }).status ?? 1;
  const text = fs.existsSync(report) ? fs.readFileSync(report, 'utf8') : '';
  const at = text.indexOf('✖ failing tests:');
  if (at >= 0) failures.push(text.slice(at));
  fs.rmSync(path.dirname(report), { recursive: true, force: true });
  return status;
};
// Live finals are never shed unless SCRUBLINE_STREAM_FINAL_DEADLINE_MS is set (engine/pocketsphinx/engine.ts): a run
// started with it set keeps the finals' words independent of the machine's speed by forcing it off here; shedding
// has its own tests, made late on purpose (test/engine/streamShed.test.ts).
const env = { ...process.env, SCRUBLINE_STREAM_FINAL_DEADLINE_MS: 'off' };
let status = run(files, env);
// The job suite again with the service's files in a bucket (s3rver on loopback, started by the harness) instead of
// the data directory: SCRUBLINE_TEST_S3_JOBS=1 (CI sets it) on a whole run. The bucket-* files use a bucket anyway.
if (filters.length === 0 && process.env.SCRUBLINE_TEST_S3_JOBS === '1') {
  const jobs = files.filter((file) => file.startsWith(path.join('test', 'jobs') + path.sep) && !path.basename(file).startsWith('bucket-'));
  console.log(`# the job suite again with SCRUBLINE_BLOB_STORE=s3: ${jobs.length} test files`);
  status = run(jobs, { ...env, SCRUBLINE_BLOB_STORE: 's3' }) || status;
}
if (failures.length > 0) console.log(`\n# the failures again, with their errors\n${failures.join('\n')}`);
process.exit(status);
