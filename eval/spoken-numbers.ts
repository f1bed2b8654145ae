// Spoken numbers on synthesized two-party calls (issue 17, must-show 1): 8 kHz stereo calls (test/helpers/calls.ts:
// agent and caller on their own channels, varied cue wordings, numbers read in groups with hesitations, noise at
// 10-20 dB SNR) through a real service with scrubaudio + scrubtext and every kind, in two sets (eval/spokenNumberCalls.ts):
// DEV, six calls window finding may be tuned on, and TEST, six held-out calls (other seeds, voices, cue wordings,
// noise colour) never tuned on. Figures are reported per set and per call; only TEST's say how well it generalizes. Asserts that the redacted
// audio covers >= 98% of the seconds of spoken card, CVV, SSN, date of birth and account audio (exact gold spans from
// how the calls were assembled), that no digit word is left in the text over the card/CVV/SSN/account spans, and
// prints the over-redaction (seconds redacted outside the gold spans).
//
//   node --import tsx --test eval/spoken-numbers.ts      (about 20-40 minutes; fails while the target is not met)
//   SPOKEN_NUMBERS_SET=dev|test (default: both)
// Why a span is missed: eval/spoken-numbers-diagnose.ts (recognition cached, per gold span).
//
// An evaluation, not part of the suite: the target (>= 98%) is not met yet (44.4% of 100 gold seconds on the
// last run, README "Spoken numbers"), and a suite that fails on a known gap lands nothing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hasFestivalVoice, hasTool, tempDir } from '../test/helpers/audio.js';
import { buildCall, type Coverage, DIGIT_LIKE, type GoldSpan, measureCoverage, type SyntheticCall } from '../test/helpers/calls.js';
import { json, startTestService, type TestService } from '../test/helpers/harness.js';
import { multipart } from '../test/helpers/multipart.js';
import { required } from '../test/helpers/require.js';
import { CALL_SETS } from './spokenNumberCalls.js';

const canRun = hasTool('ffmpeg') && hasTool('espeak-ng') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const MIN_RECALL = 0.98;
/** Kinds whose digits must not be left in the text (a date of birth is read as words such as "nineteen"). */
const DIGIT_KINDS = new Set(['CreditCardNumber', 'CVV', 'USSocialSecurityNumber', 'USBankAccountNumber']);
const SETS = (process.env.SPOKEN_NUMBERS_SET ? [process.env.SPOKEN_NUMBERS_SET] : ['dev', 'test']) as ('dev' | 'test')[];
const CALLS = SETS.flatMap((set) => CALL_SETS[set].map((options) => ({ set, options })));

interface Utterance {
  channel: number;
  start: number;
  end: number;
  text: string;
}

/** Digit words of the job's (redacted) text in utterances that overlap a gold span of its channel. */
function digitsLeft(utterances: Utterance[], gold: readonly GoldSpan[]): string[] {
  const left: string[] = [];
  for (const g of gold.filter((s) => DIGIT_KINDS.has(s.kind))) {
    for (const u of utterances.filter((x) => x.channel === g.channel && x.start < g.end && x.end > g.start)) {
      for (const w of u.text.toLowerCase().split(/\s+/)) if (DIGIT_LIKE.has(w)) left.push(`${g.kind}@${g.start.toFixed(1)}s: ${w}`);
    }
  }
  return left;
}

/**
 * Submit and wait for the job: the API waits 600 s at most, and a busy machine (two cores shared) may take longer
 * for one call, so the job is then polled until it ends (30 minutes at most).
 */
async function transcribeAndPoll(svc: TestService, file: string, fields: Record<string, string>) {
  const res = await svc.request({
    method: 'POST',
    url: '/asr/transcribe?wait=600',
    ...multipart(fields, [{ name: 'audio', filename: path.basename(file), content: fs.readFileSync(file) }]),
  });
  assert.ok(res.statusCode === 200 || res.statusCode === 202, res.body);
  let job = json(res);
  for (const until = Date.now() + 1_800_000; job.status !== 'completed' && job.status !== 'failed' && Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 5000));
    job = json(await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}` }));
  }
  assert.equal(job.status, 'completed', JSON.stringify(job));
  return job;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

describe('the coverage measure', () => {
  test('recall counts gold seconds inside redacted spans of the same channel; over-redaction what lies outside gold', () => {
    const gold: GoldSpan[] = [
      { channel: 1, start: 10, end: 14, kind: 'CreditCardNumber', digits: '', words: [] },
      { channel: 1, start: 20, end: 22, kind: 'USSocialSecurityNumber', digits: '', words: [] },
    ];
    const c = measureCoverage(gold, [
      { channel: 1, start: 9, end: 12 }, // 2 s of the card, 1 s over
      { channel: 1, start: 11, end: 13 }, // overlaps the first: counted once
      { channel: 0, start: 20, end: 22 }, // the wrong channel: all over
      { channel: 1, start: 19.5, end: 23 }, // all of the SSN, 1.5 s over
    ]);
    assert.equal(c.goldSeconds, 6);
    assert.equal(c.coveredSeconds, 5);
    assert.ok(Math.abs(c.recall - 5 / 6) < 1e-9);
    assert.equal(c.overSeconds, 1 + 2 + 1.5);
    assert.deepEqual(c.byKind.USSocialSecurityNumber, { goldSeconds: 2, coveredSeconds: 2 });
    assert.equal(measureCoverage(gold, []).recall, 0);
  });
});

describe('spoken numbers on synthesized two-party calls', { skip: required(!canRun && 'needs ffmpeg, espeak-ng, festival with the US HTS voice, and PocketSphinx') }, () => {
  let svc: TestService;
  let dir: string;
  const calls: (SyntheticCall & { set: string })[] = [];
  before(async () => {
    dir = tempDir('scrubline-calls-');
    for (const c of CALLS) calls.push({ ...buildCall(dir, c.options), set: c.set });
    svc = await startTestService('sqlite');
    // A payment line's project: cue and number windows on (they are a project's choice, off by default).
    const published = await svc.request({
      method: 'POST',
      url: '/system/cache/v2/publish',
      payload: { data: JSON.stringify({ sid: 'payments', cueWindows: { enabled: true } }) },
    });
    assert.ok(published.statusCode < 300, published.body);
  });
  after(async () => {
    await svc?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('scrubaudio + scrubtext, every kind: >= 98% of the gold seconds redacted, no digit of them in the text', async () => {
    const results: { call: SyntheticCall & { set: string }; coverage: Coverage; leaked: string[] }[] = [];
    for (const call of calls) {
      const job = await transcribeAndPoll(svc, call.wav, {
        sid: 'payments', scrubaudio: 'true', scrubtext: 'true', types: 'all', agent_location: call.agentChannel === 0 ? 'left' : 'right',
      });
      assert.equal(job.redactionStatus, 'completed', job.message);
      const spans: { channel: number; start: number; end: number }[] = job.redaction?.audio?.spans ?? [];
      const coverage = measureCoverage(call.gold, spans);
      const res = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=utterances` });
      assert.equal(res.statusCode, 200, res.body);
      const body = json(res);
      const utterances: Utterance[] = Array.isArray(body) ? body : (body.utterances ?? []);
      results.push({ call, coverage, leaked: digitsLeft(utterances, call.gold) });
    }
    for (const set of SETS) {
      const total = { gold: 0, covered: 0, over: 0, duration: 0 };
      const byKind: Record<string, { gold: number; covered: number }> = {};
      console.log(`${set.toUpperCase()} set${set === 'test' ? ' (held out, never tuned on)' : ''}:`);
      for (const { call, coverage, leaked } of results.filter((r) => r.call.set === set)) {
        total.gold += coverage.goldSeconds;
        total.covered += coverage.coveredSeconds;
        total.over += coverage.overSeconds;
        total.duration += call.duration * 2;
        for (const [kind, k] of Object.entries(coverage.byKind)) {
          const t = (byKind[kind] ??= { gold: 0, covered: 0 });
          t.gold += k.goldSeconds;
          t.covered += k.coveredSeconds;
        }
        console.log(
          `  call ${call.wav.replace(/.*call-/, '')} (SNR ${call.snrDb} dB, ${call.duration.toFixed(1)} s): recall ${pct(coverage.recall)} of ${coverage.goldSeconds.toFixed(1)} s; ` +
            `over-redaction ${coverage.overSeconds.toFixed(1)} s; digit words left over the numbers: ${leaked.length}`,
        );
      }
      const recall = total.gold > 0 ? total.covered / total.gold : 1;
      console.log(`  all ${set} calls: recall ${pct(recall)} of ${total.gold.toFixed(1)} gold seconds; over-redaction ${total.over.toFixed(1)} s of ${total.duration.toFixed(0)} channel-seconds`);
      for (const [kind, k] of Object.entries(byKind)) console.log(`    ${kind}: ${pct(k.covered / k.gold)} of ${k.gold.toFixed(1)} s`);
    }
    const leaked = results.flatMap((r) => r.leaked);
    for (const { call, coverage } of results) {
      assert.ok(coverage.recall >= MIN_RECALL, `call ${call.wav}: recall ${pct(coverage.recall)} < ${pct(MIN_RECALL)} (${JSON.stringify(coverage.byKind)})`);
    }
    assert.deepEqual(leaked, [], 'digit words left in the text over the spoken numbers');
  });
});
