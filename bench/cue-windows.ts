// Cue and number-speech window finding (findSensitiveWindows) on a one-hour two-party recognized call, against
// the text redaction the job already runs on the same transcript (redactTranscript, every kind), in the same run.
// The call: turns of 4–14 words from an everyday vocabulary, both parties, ~3 s apart; every two minutes the
// agent asks for a value (varied, some misheard) and the caller reads digits with hesitations.
//
//   npx tsx bench/cue-windows.ts          (BENCH_AUDIO_SECONDS=600 for a shorter call, BENCH_REPEAT=5)
import { ENTITY_KINDS } from '../src/redact/entityKinds.js';
import { Masker } from '../src/redact/masks.js';
import { redactTranscript } from '../src/redact/redactTranscript.js';
import { resolveRules } from '../src/redact/policy.js';
import { findSensitiveWindows } from '../src/redact/windows/sensitiveWindows.js';
import { resolveWindowOptions } from '../src/redact/windows/windowOptions.js';
import type { Transcript, Word } from '../src/transcript/types.js';

const seconds = Number(process.env.BENCH_AUDIO_SECONDS ?? 3600);
const repeat = Number(process.env.BENCH_REPEAT ?? 5);

const VOCAB = (
  'the a to you i and your my is it that for of on what can have account number card okay yes please thank so well we ' +
  'will be there this call help today about need want order date time payment name address week back one two four ' +
  'sure right let me check see just moment problem service bill charge refund email phone last first again'
).split(' ');
const ASKS = ['can i have the card number', 'and your soshul', 'what is your date of bird', 'the account number please', 'the a m card im lee you'];
const DIGITS = 'four one won uh one two two ate two three oh three three for four four four'.split(' ');

let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

function build(): Transcript {
  const channels: Word[][] = [[], []];
  let t = 0;
  let nextAsk = 60;
  let asks = 0;
  const say = (channel: number, words: string[]) => {
    for (const word of words) {
      channels[channel].push({ word, start: t, end: t + 0.32, confidence: 0.4 + random() * 0.6 });
      t += 0.4;
    }
    t += 0.8 + random() * 2;
  };
  let speaker = 0;
  while (t < seconds - 30) {
    if (t >= nextAsk) {
      say(0, ASKS[asks++ % ASKS.length].split(' '));
      say(1, DIGITS);
      nextAsk += 120;
      speaker = 0;
      continue;
    }
    say(speaker, Array.from({ length: 4 + Math.floor(random() * 11) }, () => VOCAB[Math.floor(random() * VOCAB.length)]));
    speaker = 1 - speaker;
  }
  return {
    model: 'en-US:bench', engine: 'bench', language: 'en-US', audioSeconds: seconds, sourceSampleRate: 8000, processingSeconds: 0,
    channels: channels.map((words, channel) => ({ channel, words, segments: [] })),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn: () => void) => {
  const t = performance.now();
  fn();
  return (performance.now() - t) / 1000;
};

const transcript = build();
const words = transcript.channels.reduce((n, c) => n + c.words.length, 0);
const kinds = [...ENTITY_KINDS];
const options = resolveWindowOptions();
const rules = resolveRules({ types: kinds });
findSensitiveWindows(transcript, { kinds, options }); // warm up
redactTranscript(transcript, rules, new Masker('bench'));
const windows = findSensitiveWindows(transcript, { kinds, options });
const find = median(Array.from({ length: repeat }, () => time(() => void findSensitiveWindows(transcript, { kinds, options }))));
const redact = median(Array.from({ length: repeat }, () => time(() => void redactTranscript(transcript, rules, new Masker('bench')))));
const bySource = windows.reduce<Record<string, number>>((acc, w) => ((acc[w.source] = (acc[w.source] ?? 0) + 1), acc), {});
console.log(`call: ${seconds} s, ${words} words, ${Math.floor((seconds - 90) / 120) + 1} planted asks`);
console.log(`windows: ${windows.length} ${JSON.stringify(bySource)}`);
console.log(`findSensitiveWindows  ${(find * 1000).toFixed(0)} ms (median of ${repeat})`);
console.log(`redactTranscript      ${(redact * 1000).toFixed(0)} ms (median of ${repeat}; the text redaction a job runs anyway)`);
console.log(`window finding adds   ${((find / redact) * 100).toFixed(0)}% to text redaction`);
