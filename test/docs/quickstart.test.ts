// The README's quick start, run as written: every shell block of its "Quick start" section (but `./run start`, whose
// installing is the machine's business; the test starts the same `scrubline serve` on a free port and a fresh data
// folder) runs in bash in a fresh folder, with the sample call the README names. What the README promises must
// hold: the job completes with its redaction, the redacted transcript shows no card digit and no name, the spans
// name both kinds, and the redacted recording is audio of the call's length and channels.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { durationOf, hasFestivalVoice, hasTool, tempDir } from '../helpers/audio.js';
import { type ServerProcess, startServerProcess } from '../helpers/cli.js';
import { required } from '../helpers/require.js';

const REPO = path.resolve(import.meta.dirname, '..', '..');
const README = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
const SAMPLE = path.join(REPO, 'examples', 'sample-call.wav');
const CARD_DIGITS = '4111111111111111';

/** The fenced `sh` blocks of the README's quick start, in order. */
function quickStartBlocks(): string[] {
  const start = README.indexOf('## Quick start');
  assert.ok(start >= 0, 'the README has a "Quick start" section');
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Runs a block as a user would paste it, after the blocks before it (a shell's state carries over). */
function runBlocks(blocks: string[], cwd: string, url: string): { status: number | null; stdout: string; stderr: string } {
  // The same program as `node bin/scrubline.js` (which runs the compiled dist/), from the sources under test.
  const script = ['set -euo pipefail', ...blocks]
    .join('\n')
    .replaceAll('S=http://127.0.0.1:8080', `S=${url}`)
    // The README's wait suits an idle machine; the suite must pass on a busy one, so the test waits as long as allowed.
    .replaceAll('wait=120', 'wait=600')
    .replaceAll('node bin/scrubline.js', `node --import tsx ${path.join(REPO, 'src/cli/bin.ts')}`);
  const result = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', env: { ...process.env, NODE_PATH: path.join(REPO, 'node_modules') }, timeout: 1_100_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const missing =
  (!hasTool('ffmpeg') && 'ffmpeg') ||
  (!hasTool('jq') && 'jq') ||
  (!fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us') && 'PocketSphinx and its model');

describe('README quick start', { skip: required(missing && `needs ${missing}`) }, () => {
  let server: ServerProcess;
  let dir: string;
  let blocks: string[];
  before(async () => {
    dir = tempDir('scrubline-quickstart-');
    // The README's paths are the repository's: the sample call, and (for the CLI) its tsx loader.
    fs.symlinkSync(path.join(REPO, 'examples'), path.join(dir, 'examples'));
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
    // The embedded default the README describes, whatever the test run's environment says.
    server = await startServerProcess({ SCRUBLINE_DATA_DIR: path.join(dir, 'data'), DATABASE_URL: '', REDIS_URL: '', SCRUBLINE_BLOB_STORE: 'local' });
    blocks = quickStartBlocks();
  });
  after(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the README names the bundled sample call, and its regeneration script exists', () => {
    assert.match(README, /examples\/sample-call\.wav/);
    assert.ok(fs.statSync(SAMPLE).size > 0);
    assert.equal(Math.round(durationOf(SAMPLE)), 20);
    assert.ok(fs.existsSync(path.join(REPO, 'examples', 'make-sample-call.sh')));
    assert.equal(blocks[0].trim(), './run start', 'the first step starts the service');
    assert.match(server.output(), /"store":"sqlite"/, 'the service runs embedded, as the README says');
  });

  test('every quick-start command runs, and the call comes back redacted', () => {
    const result = runBlocks(blocks.slice(1), dir, server.url);
    assert.equal(result.status, 0, `${result.stderr}\n${result.stdout}\n${server.output().slice(-4000)}`);

    const job = JSON.parse(fs.readFileSync(path.join(dir, 'job.json'), 'utf8'));
    assert.equal(job.status, 'completed');
    assert.equal(job.redactionStatus, 'completed');
    assert.deepEqual(job.redaction.policy.kinds.sort(), ['CreditCardNumber', 'Person']);
    const kinds = new Set(job.redaction.spans.map((s: { kind: string }) => s.kind));
    assert.ok(kinds.has('Person') && kinds.has('CreditCardNumber'), `spans: ${[...kinds]}`);

    // The transcript the quick start printed (step 3) is the redacted one: masks, no card digits, no name.
    const transcript = result.stdout.split('\n').filter((line) => /^(Agent|Caller):/.test(line)).join('\n');
    assert.ok(transcript.split('\n').length >= 4, result.stdout);
    assert.match(transcript, /Caller: .*\[PERSON\]/);
    assert.match(transcript, /\[CREDIT_CARD_NUMBER\]/);
    assert.doesNotMatch(transcript, /\d{4}/, 'no run of card digits');
    assert.doesNotMatch(transcript, /4111|one one one one/i);
    assert.doesNotMatch(transcript, /\bjohn\b|\bsmith\b/i);
    assert.doesNotMatch(fs.readFileSync(path.join(dir, 'job.json'), 'utf8'), new RegExp(`${CARD_DIGITS}|"smith"|"john"`, 'i'));

    // Step 5: the redacted recording, the call's length and channels.
    const redacted = path.join(dir, 'sample-call-redacted.wav');
    assert.ok(Math.abs(durationOf(redacted) - durationOf(SAMPLE)) < 0.1);
    const channels = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=channels', '-of', 'default=nw=1:nk=1', redacted], { encoding: 'utf8' }).stdout.trim();
    assert.equal(channels, '2');

    // The command-line equivalent wrote its redacted text too.
    const cliText = fs.readFileSync(path.join(dir, 'out', 'sample-call.txt'), 'utf8');
    assert.match(cliText, /\[PERSON\]/);
    assert.match(cliText, /\[CREDIT_CARD_NUMBER\]/);
    assert.doesNotMatch(cliText, /\d{4}|\bsmith\b/i);
  });

  test('the sample call regenerates with the script the README names', { skip: required(!hasFestivalVoice() && "needs festival's US English voice") }, () => {
    const out = path.join(dir, 'regenerated.wav');
    const result = spawnSync('bash', [path.join(REPO, 'examples', 'make-sample-call.sh'), out], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.ok(Math.abs(durationOf(out) - durationOf(SAMPLE)) < 0.5);
  });
});
