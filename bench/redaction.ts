// Redaction speed, each against a baseline in the same run:
//   audio: redacting 200 spans in a one-hour stereo 8 kHz mu-law recording, against ffmpeg copying the same
//          file (-c copy) and against ffmpeg decoding and re-encoding it with no edit (BENCH_AUDIO_SECONDS=0
//          skips it);
//   text:  redactTranscript (every kind, the job path) over a word-timed transcript of 1 KB, 100 KB and 1 MB
//          (time per KB shows it linear); detection throughput (detectWords on ASR words, detectText on written
//          text) of this code against the code before the fail-closed core (commit BASELINE, extracted with
//          `git archive` into a temp dir and imported from there), on the same words in the same run; and
//          input that was super-linear before (one 64 KiB word, a 1 MiB word). BENCH_TRANSCRIPT=0 skips the
//          transcript sizes, BENCH_BASELINE names the commit to compare detection with.
//
//   npx tsx bench/redaction.ts
import { execFileSync, execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { redactAudio } from '../src/audio/redactAudio.js';
import { detectText, detectWords } from '../src/redact/detect.js';
import { DEFAULT_KINDS } from '../src/redact/entityKinds.js';
import { Masker } from '../src/redact/masks.js';
import { redactText } from '../src/redact/redactText.js';
import { redactTranscript } from '../src/redact/redactTranscript.js';
import { resolveRules } from '../src/redact/policy.js';
import type { Transcript } from '../src/transcript/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BASELINE = process.env.BENCH_BASELINE ?? 'e3713fe';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-redact-'));
const seconds = Number(process.env.BENCH_AUDIO_SECONDS ?? 3600);
const time = (fn: () => void) => {
  const t = performance.now();
  fn();
  return (performance.now() - t) / 1000;
};
const lines: string[] = [`Redaction benchmark (${os.availableParallelism()} cores, node ${process.version})`];

if (seconds > 0) {
  const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);
  const source = path.join(dir, 'hour.wav');
  ffmpeg(['-f', 'lavfi', '-i', `anoisesrc=color=pink:sample_rate=8000:duration=${seconds}:amplitude=0.2`, '-ac', '2', '-c:a', 'pcm_mulaw', source]);
  const copy = time(() => ffmpeg(['-i', source, '-c', 'copy', path.join(dir, 'copy.wav')]));
  const reencode = time(() => ffmpeg(['-i', source, '-c:a', 'pcm_mulaw', path.join(dir, 'reencode.wav')]));
  const spans = Array.from({ length: 200 }, (_, i) => ({ channel: i % 2, start: (i * seconds) / 200 + 1, end: (i * seconds) / 200 + 2.5 }));
  const t = performance.now();
  const rssBefore = process.memoryUsage().rss;
  await redactAudio(source, path.join(dir, 'redacted.wav'), spans, { mode: 'tone' });
  const redact = (performance.now() - t) / 1000;
  const rssAfter = process.memoryUsage().rss;
  lines.push(`audio, ${seconds} s stereo 8 kHz mu-law, 200 spans:`);
  lines.push(`  ffmpeg -c copy           ${copy.toFixed(2)} s`);
  lines.push(`  ffmpeg decode+encode     ${reencode.toFixed(2)} s`);
  lines.push(`  redactAudio              ${redact.toFixed(2)} s  (x${(redact / copy).toFixed(1)} the copy, x${(redact / reencode).toFixed(2)} the re-encode; RSS +${((rssAfter - rssBefore) / 1e6).toFixed(0)} MB)`);
}

// A call-centre transcript in ASR form: PII in some sentences, ordinary talk in the others.
const SENTENCES = [
  'thank you for calling my name is john smith and my social is one two three four five six seven eight nine',
  'can you confirm the card ending in four one one one please',
  'sure my card number is four one one one one one one one one one one one one one one one expiring oh four twenty six',
  'i live at forty two oak street springfield and my email is john dot smith at gmail dot com',
  'the weather is nice today and i would like to check the balance on my account before the weekend',
  'you can reach me at five five five one two three four five six seven any time after five',
  'okay let me look that up for you it will only take a moment thank you for waiting',
];
function wordsOfSize(bytes: number): string[] {
  const words: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    for (const w of SENTENCES[i % SENTENCES.length].split(' ')) {
      words.push(w);
      size += w.length + 1;
    }
  }
  return words;
}
function transcriptOf(words: string[]): Transcript {
  return {
    model: 'bench', engine: 'bench', language: 'en-us', audioSeconds: words.length * 0.4, sourceSampleRate: 8000, processingSeconds: 0,
    channels: [{ channel: 0, segments: [], words: words.map((word, i) => ({ word, start: i * 0.4, end: i * 0.4 + 0.35, confidence: 0.9 })) }],
  };
}
// Every kind as `all` means it (the default kinds; optional kinds such as Organization only when named).
const rules = resolveRules({ types: [...DEFAULT_KINDS] });
const REPEAT = Number(process.env.BENCH_REPEAT ?? 2);

detectWords(wordsOfSize(4000)); // warm up
lines.push(`text: redactTranscript, every kind (job path), one channel (best of ${REPEAT}):`);
const perKb: number[] = [];
// BENCH_TRANSCRIPT=0 skips the transcript sizes (the detection comparison below is what a recognizer change moves).
const sizes = process.env.BENCH_TRANSCRIPT === '0' ? [] : ([['1 KB', 1024], ['100 KB', 100 * 1024], ['1 MB', 1024 * 1024]] as const);
for (const [label, bytes] of sizes) {
  const words = wordsOfSize(bytes);
  const transcript = transcriptOf(words);
  // The best of a few runs: the machine may be shared, and a busy moment is not the code's time.
  const t = Math.min(...Array.from({ length: REPEAT }, () => time(() => void redactTranscript(transcript, rules, new Masker('bench')))));
  const kb = words.join(' ').length / 1024;
  perKb.push((t * 1000) / kb);
  lines.push(`  ${label.padEnd(7)} ${String(words.length).padStart(7)} words  ${t.toFixed(3).padStart(8)} s  (${((t * 1000) / kb).toFixed(2)} ms per KB)`);
}
if (perKb.length === 3) lines.push(`  ms per KB, 1 MB against 100 KB: x${(perKb[2] / perKb[1]).toFixed(2)} (1.0 = linear)`);

// The code before this change, from git, imported from a temp dir that sees this checkout's node_modules.
const baseDir = path.join(dir, 'baseline');
fs.mkdirSync(baseDir);
execSync(`git -C ${JSON.stringify(ROOT)} archive ${BASELINE} src package.json | tar -x -C ${JSON.stringify(baseDir)}`);
fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(baseDir, 'node_modules'));
const before = (await import(path.join(baseDir, 'src/redact/detect.ts'))) as typeof import('../src/redact/detect.js');

const words = wordsOfSize(Number(process.env.BENCH_TEXT_BYTES ?? 100 * 1024));
const written = SENTENCES.join('. ').replace(/one two three four five six seven eight nine/, '123-45-6789');
const text = Array.from({ length: Math.ceil(words.join(' ').length / written.length) }, () => written).join('.\n');
const chars = words.join(' ').length;
before.detectWords(words.slice(0, 500));
const floor = time(() => void words.join(' ').toLowerCase().split(' ').length);
const rows: [string, number, number][] = [
  ['detectWords, all', time(() => void before.detectWords(words)), time(() => void detectWords(words))],
  ['detectWords, no NLP lib', time(() => void before.detectWords(words, { personSources: { compromise: false } })), time(() => void detectWords(words, { personSources: { compromise: false } }))],
  ['detectText, all', time(() => void before.detectText(text)), time(() => void detectText(text))],
];
lines.push(`detection throughput, ${words.length} words (${chars} characters), before (${BASELINE}) and after, same run:`);
lines.push(`  join+lowercase floor        ${(chars / floor / 1e6).toFixed(1)} M chars/s`);
for (const [label, b, a] of rows) lines.push(`  ${label.padEnd(27)} before ${(chars / b / 1e3).toFixed(0).padStart(6)} k chars/s   after ${(chars / a / 1e3).toFixed(0).padStart(6)} k chars/s`);

// Input that was super-linear before: one long word (redactText, every kind). Before only at 64 KiB (it took seconds).
const word64 = 'a'.repeat(64 * 1024);
const word1m = 'a'.repeat(1024 * 1024);
const beforeText = (await import(path.join(baseDir, 'src/redact/redactText.ts'))) as typeof import('../src/redact/redactText.js');
lines.push('one long word, redactText, every kind:');
lines.push(`  64 KiB word   before ${time(() => void beforeText.redactText(word64, rules, new Masker('b'))).toFixed(2)} s   after ${time(() => void redactText(word64, rules, new Masker('b'))).toFixed(2)} s`);
lines.push(`  1 MiB word    after ${time(() => void redactText(word1m, rules, new Masker('b'))).toFixed(2)} s`);
lines.push(`  1 MiB of "ab1." after ${time(() => void redactText('ab1.'.repeat(256 * 1024), rules, new Masker('b'))).toFixed(2)} s`);

fs.rmSync(dir, { recursive: true, force: true });
console.log(lines.join('\n'));
