// Redaction speed, each against a baseline in the same run:
//   audio: redacting 200 spans in a one-hour stereo 8 kHz mu-law recording, against ffmpeg copying the same
//          file (-c copy) and against ffmpeg decoding and re-encoding it with no edit;
//   text:  detectWords over a long ASR-style transcript (characters/s), against joining and lower-casing the
//          same words (a floor for any pass over the text), with and without the NLP library for names.
//
//   npx tsx bench/redaction.ts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { redactAudio } from '../src/audio/redactAudio.js';
import { detectWords } from '../src/redact/detect.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-redact-'));
const seconds = Number(process.env.BENCH_AUDIO_SECONDS ?? 3600);
const time = (fn: () => void) => {
  const t = performance.now();
  fn();
  return (performance.now() - t) / 1000;
};
const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);

const source = path.join(dir, 'hour.wav');
ffmpeg(['-f', 'lavfi', '-i', `anoisesrc=color=pink:sample_rate=8000:duration=${seconds}:amplitude=0.2`, '-ac', '2', '-c:a', 'pcm_mulaw', source]);
const copy = time(() => ffmpeg(['-i', source, '-c', 'copy', path.join(dir, 'copy.wav')]));
const reencode = time(() => ffmpeg(['-i', source, '-c:a', 'pcm_mulaw', path.join(dir, 'reencode.wav')]));
const spans = Array.from({ length: 200 }, (_, i) => ({ channel: i % 2, start: (i * seconds) / 200 + 1, end: (i * seconds) / 200 + 2.5 }));
let t = performance.now();
const rssBefore = process.memoryUsage().rss;
await redactAudio(source, path.join(dir, 'redacted.wav'), spans, { mode: 'tone' });
const redact = (performance.now() - t) / 1000;
const rssAfter = process.memoryUsage().rss;

const sentence = 'thank you for calling my name is john smith and my social is one two three four five six seven eight nine can you confirm the card ending in four one one one please';
const words = Array.from({ length: Number(process.env.BENCH_TEXT_REPEAT ?? 1000) }, () => sentence.split(' ')).flat();
const chars = words.join(' ').length;
detectWords(words.slice(0, 500)); // warm up
const floor = time(() => void words.join(' ').toLowerCase().split(' ').length);
const full = time(() => void detectWords(words));
const lean = time(() => void detectWords(words, { personSources: { compromise: false } }));

fs.rmSync(dir, { recursive: true, force: true });
console.log(`Redaction benchmark (${os.availableParallelism()} cores, node ${process.version})`);
console.log(`audio, ${seconds} s stereo 8 kHz mu-law, 200 spans:`);
console.log(`  ffmpeg -c copy           ${copy.toFixed(2)} s`);
console.log(`  ffmpeg decode+encode     ${reencode.toFixed(2)} s`);
console.log(`  redactAudio              ${redact.toFixed(2)} s  (x${(redact / copy).toFixed(1)} the copy, x${(redact / reencode).toFixed(2)} the re-encode; RSS +${((rssAfter - rssBefore) / 1e6).toFixed(0)} MB)`);
console.log(`text, ${words.length} words (${chars} characters):`);
console.log(`  join+lowercase floor     ${(chars / floor / 1e6).toFixed(1)} M chars/s`);
console.log(`  detectWords, all         ${(chars / full / 1e3).toFixed(0)} k chars/s`);
console.log(`  detectWords, no NLP lib  ${(chars / lean / 1e3).toFixed(0)} k chars/s`);
