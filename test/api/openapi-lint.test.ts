// The served /openapi.json linted by the Redocly CLI (`redocly lint`, its recommended rules, redocly.yaml): no
// errors and no warnings (each warning is printed, rule by rule, when there are some).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/harness.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REDOCLY = path.join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

/** `redocly lint` on a file: its JSON report. No telemetry, no update check (nothing leaves this machine). */
function lint(file: string): { totals: { errors: number; warnings: number }; problems: Problem[] } {
  const result = spawnSync(process.execPath, [REDOCLY, 'lint', file, '--format=json', `--config=${path.join(ROOT, 'redocly.yaml')}`], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  });
  const start = result.stdout.indexOf('{');
  assert.ok(start >= 0, `redocly lint printed no report (exit ${result.status}): ${result.stderr.slice(0, 2000)}`);
  return JSON.parse(result.stdout.slice(start));
}

describe('redocly lint of /openapi.json', () => {
  let svc: TestService;
  let dir: string;
  let file: string;
  before(async () => {
    svc = await startTestService('sqlite');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-lint-'));
    file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, (await svc.request({ method: 'GET', url: '/openapi.json' })).body);
  });
  after(async () => {
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('finds no errors and no warnings', () => {
    const report = lint(file);
    const byRule = new Map<string, number>();
    for (const p of report.problems.filter((p) => p.severity === 'warn')) byRule.set(p.ruleId, (byRule.get(p.ruleId) ?? 0) + 1);
    console.log(`# redocly lint: ${report.totals.errors} errors, ${report.totals.warnings} warnings ${JSON.stringify(Object.fromEntries(byRule))}`);
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
    assert.deepEqual(errors, []);
    assert.equal(report.totals.errors, 0);
    const warnings = report.problems.filter((p) => p.severity === 'warn').map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
    assert.deepEqual(warnings, []);
  });

  test('the lint is real: a document with a broken reference and a duplicate operationId has errors', () => {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    doc.paths['/asr/params'].get.operationId = doc.paths['/params'].get.operationId;
    doc.paths['/asr/params'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/NoSuchSchema' };
    const broken = path.join(dir, 'broken.json');
    fs.writeFileSync(broken, JSON.stringify(doc));
    const rules = new Set(lint(broken).problems.filter((p) => p.severity === 'error').map((p) => p.ruleId));
    assert.ok(rules.has('operation-operationId-unique'), [...rules].join(', '));
    assert.ok(rules.has('no-unresolved-refs'), [...rules].join(', '));
  });
});
