// Why spoken numbers are missed (issue 17): builds the synthesized calls of eval/spoken-numbers.ts, recognizes
// each once (cached under $SPOKEN_NUMBERS_CACHE, default /tmp/scrubline-spoken-numbers), and prints per gold span
// what the recognizer heard there and before it, which windows cover it, and the seconds missed at each end.
// A fast loop for window finding: recognition is cached, windows are found again on every run.
//
//   node --import tsx eval/spoken-numbers-diagnose.ts [dev|test|all] [seed...]
import fs from 'node:fs';
import path from 'node:path';
import { recognizeFile } from '../src/engine/recognize.js';
import { closeSharedPool } from '../src/engine/pool.js';
import { closeRedactionPool, redactTranscriptOffLoop } from '../src/workers/index.js';
import { policyRules } from '../src/redact/policy.js';
import { DEFAULT_KINDS } from '../src/redact/entityKinds.js';
import { findSensitiveWindows } from '../src/redact/windows/sensitiveWindows.js';
import { applyWindows } from '../src/redact/windows/apply.js';
import type { Transcript } from '../src/transcript/types.js';
import { buildCall, DIGIT_LIKE, measureCoverage, type SyntheticCall } from '../test/helpers/calls.js';
import { CALL_SETS } from './spokenNumberCalls.js';

const cacheDir = process.env.SPOKEN_NUMBERS_CACHE ?? '/tmp/scrubline-spoken-numbers';
fs.mkdirSync(cacheDir, { recursive: true });
const which = process.argv[2] ?? 'dev';
const seeds = new Set(process.argv.slice(3).map(Number));
const specs = (which === 'all' ? [...CALL_SETS.dev, ...CALL_SETS.test] : CALL_SETS[which as 'dev' | 'test']).filter((c) => seeds.size === 0 || seeds.has(c.seed));

const kinds = [...DEFAULT_KINDS];
const rules = policyRules({ kinds, text: true, audio: true });

const total = { gold: 0, covered: 0, over: 0, duration: 0, leaked: 0 };
for (const spec of specs) {
  const dir = path.join(cacheDir, `call-${spec.seed}`);
  fs.mkdirSync(dir, { recursive: true });
  const meta = path.join(dir, 'call.json');
  let call: SyntheticCall;
  if (fs.existsSync(meta)) call = JSON.parse(fs.readFileSync(meta, 'utf8'));
  else {
    call = buildCall(dir, spec);
    fs.writeFileSync(meta, JSON.stringify(call));
  }
  const tfile = path.join(dir, 'transcript.json');
  let transcript: Transcript;
  if (fs.existsSync(tfile)) transcript = JSON.parse(fs.readFileSync(tfile, 'utf8'));
  else {
    transcript = await recognizeFile(call.wav, {});
    fs.writeFileSync(tfile, JSON.stringify(transcript));
  }
      const windows = findSensitiveWindows(transcript, { kinds, project: { enabled: true } });
  // What the job's core redaction masks (recognized entities), as the service runs it.
  const core = await redactTranscriptOffLoop(transcript, rules, 'diagnosis');
  const entity = core.spans;
  // The text as the job leaves it: digit words still inside a card, CVV, SSN or account span are a leak.
  const text = applyWindows(core.transcript, windows, rules).transcript;
  const leaked = call.gold
    .filter((g) => g.kind !== 'DateOfBirth')
    .flatMap((g) => text.channels.find((c) => c.channel === g.channel)!.words.filter((w) => w.start < g.end && w.end > g.start && DIGIT_LIKE.has(w.word)));
  total.leaked += leaked.length;
  const spans = [...windows, ...entity];
  const cov = measureCoverage(call.gold, spans);
  total.gold += cov.goldSeconds;
  total.covered += cov.coveredSeconds;
  total.over += cov.overSeconds;
  total.duration += call.duration * 2;
  console.log(`\n=== call ${spec.seed} (${transcript.model}, SNR ${call.snrDb} dB, agent ch ${call.agentChannel}): recall ${(cov.recall * 100).toFixed(1)}% of ${cov.goldSeconds.toFixed(1)} s, over ${cov.overSeconds.toFixed(1)} s; digit words left in the text over card/CVV/SSN/account: ${leaked.length}`);
  for (const s of call.script) {
    const ch = transcript.channels.find((c) => c.channel === s.channel)!;
    const heard = ch.words.filter((w) => w.start < s.end + 0.3 && w.end > s.start - 0.3).map((w) => `${w.word}${w.confidence < 0.5 ? '?' : ''}`);
    const g = call.gold.find((x) => x.start === s.start && x.channel === s.channel);
    let tag = '';
    if (g) {
      const cover = spans.filter((w) => w.channel === g.channel && w.end > g.start && w.start < g.end);
      const c = measureCoverage([g], cover);
      tag = ` <<${g.kind} ${(c.recall * 100).toFixed(0)}%`;
    }
    console.log(`  ${s.channel === call.agentChannel ? 'A' : 'C'} ${s.start.toFixed(1)}-${s.end.toFixed(1)} "${s.text}" => ${heard.join(' ')}${tag}`);
  }
  for (const w of windows) console.log(`    window ch${w.channel} ${w.start.toFixed(1)}-${w.end.toFixed(1)} ${w.kind} ${w.source} ${w.reason ?? ''}`);
}
console.log(`\nALL: recall ${((total.covered / total.gold) * 100).toFixed(1)}% of ${total.gold.toFixed(1)} s, over ${total.over.toFixed(1)} s of ${total.duration.toFixed(0)} channel-seconds; digit words left in the text: ${total.leaked}`);
await closeSharedPool();
await closeRedactionPool();
