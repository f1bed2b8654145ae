// The cost of finding sensitive windows (cues, number-shaped speech: issue 17) on a one-hour two-party call,
// against the job's redaction without it, in the same run: a synthetic word-timed transcript of one hour on two
// channels (agent and caller taking turns, ~9,000 words, with cue phrases, numbers read in groups and
// misrecognized digits every few minutes), then
//   redactTranscript alone (every kind: the core redaction the job runs today),
//   findSensitiveWindows alone, and both one after the other (the job with windows),
// each the best of BENCH_REPEAT runs (the machine may be shared: a busy moment is not the code's time).
//
//   npx tsx bench/windows.ts
import os from 'node:os';
import { ENTITY_KINDS } from '../src/redact/entityKinds.js';
import { Masker } from '../src/redact/masks.js';
import { redactTranscript } from '../src/redact/redactTranscript.js';
import { resolveRules } from '../src/redact/rules.js';
import { findSensitiveWindows } from '../src/redact/windows/sensitiveWindows.js';
import type { Transcript, Word } from '../src/transcript/types.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3600);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);

const AGENT = [
  'thank you for calling how can i help you today',
  'let me pull up your account one moment please',
  'can i have the card number please',
  'and the long number on the front',
  "what's your social",
  'date of birth',
  'and the security code on the back',
  'okay i have updated that for you is there anything else',
  'could you spell your last name for me',
];
const CALLER = [
  'hi yes i am calling about my bill it seems a bit high this month',
  'sure it is four five three two uh zero one five one one two eight three zero three six six',
  'for five three to won oh double one ate three',
  'one two three four five six seven eight nine',
  'march fourth nineteen eighty two',
  'no that is all thank you very much',
  'yeah i moved house last month and i think the address is wrong',
  'my card number is four one one one um two two two two three three three three four four four four',
];

/** A two-channel transcript of `seconds`: turns alternate, ~2.6 words per second while speaking, pauses between. */
function hourCall(seconds: number): Transcript {
  const channels: Word[][] = [[], []];
  let t = 0.5;
  let turn = 0;
  while (t < seconds - 10) {
    const channel = turn % 2;
    const lines = channel === 0 ? AGENT : CALLER;
    const line = lines[(turn * 7 + Math.floor(turn / 5)) % lines.length];
    for (const word of line.split(' ')) {
      const length = 0.2 + (word.length % 5) * 0.05;
      channels[channel].push({ word, start: +t.toFixed(3), end: +(t + length).toFixed(3), confidence: word.length % 3 === 0 ? 0.4 : 0.9 });
      t += length + 0.08;
    }
    t += 0.6 + (turn % 3) * 0.3;
    turn++;
  }
  return {
    model: 'bench', engine: 'bench', language: 'en-us', audioSeconds: seconds, sourceSampleRate: 8000, processingSeconds: 0,
    channels: channels.map((words, channel) => ({ channel, words, segments: [] })),
  };
}

const time = (fn: () => void) => {
  const t = performance.now();
  fn();
  return (performance.now() - t) / 1000;
};
const best = (fn: () => void) => Math.min(...Array.from({ length: REPEAT }, () => time(fn)));

const transcript = hourCall(SECONDS);
const rules = resolveRules({ types: [...ENTITY_KINDS] });
// Every kind asked, cue windows on (as a payment project sets them): the most work the finder does.
const options: Parameters<typeof findSensitiveWindows>[1] = { kinds: ENTITY_KINDS, project: { enabled: true } };
const words = transcript.channels.reduce((n, c) => n + c.words.length, 0);

// Warm up both (JIT, lazily built tables).
redactTranscript(hourCall(120), rules, new Masker('warm'));
findSensitiveWindows(hourCall(120), options);

const core = best(() => void redactTranscript(transcript, rules, new Masker('bench')));
const windows = best(() => void findSensitiveWindows(transcript, options));
const both = best(() => {
  redactTranscript(transcript, rules, new Masker('bench'));
  findSensitiveWindows(transcript, options);
});
const found = findSensitiveWindows(transcript, options);

const lines = [
  `Window-finding benchmark (${os.availableParallelism()} cores, node ${process.version}), best of ${REPEAT}`,
  `transcript: ${(SECONDS / 60).toFixed(0)} min, 2 channels, ${words} words; ${found.length} windows found`,
  `  redactTranscript alone (every kind)      ${core.toFixed(3)} s`,
  `  findSensitiveWindows alone               ${windows.toFixed(3)} s`,
  `  both (the job with windows)              ${both.toFixed(3)} s   (+${(((both - core) / core) * 100).toFixed(0)}% over the core alone)`,
  `  per hour of call: windows cost ${((windows / SECONDS) * 3600).toFixed(3)} s`,
];
console.log(lines.join('\n'));
