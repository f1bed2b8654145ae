// Over-redaction of ordinary talk by the sensitive windows at each level (issue 31, redact/windows/windowLevel.ts):
// what the DEFAULTS (number-speech layers and payment cues, no opt-in) and `cueWindows: true` (every cue rule) cost
// on speech that holds no value to redact, with every default kind asked.
//  1. The dev data (test/fixtures/dev-data references): each recording recognized with the default model choice, as
//     recorded and taken down to an 8 kHz line (the telephone model, words heard unsure): words masked by windows.
//  2. eval/handwritten-calls.txt (ASR form) as one two-party call (turns alternate channels, 0.35 s a word, 0.8 s
//     between turns), once with every word heard sure (0.9) and once unsure (0.4, a noisy line): words of its no-PII
//     turns masked by windows (windows over turns that hold a value are not counted). Never tuned on; only measured.
// Prints, per level and set, words masked / words, and the windows by rule.
//
//   node --import tsx eval/default-windows.ts      (a few minutes on a busy machine: 10 recordings recognized twice;
//   RECOGNIZED=/tmp/dev-recognized.json keeps the recognition for the next run)
import fs from 'node:fs';
import path from 'node:path';
import { closeSharedPool } from '../src/engine/pool.js';
import { recognizeFile } from '../src/engine/recognize.js';
import { DEFAULT_KINDS } from '../src/redact/entityKinds.js';
import { findSensitiveWindows } from '../src/redact/windows/sensitiveWindows.js';
import { windowPlan, type WindowLevel, type WindowPlan } from '../src/redact/windows/windowLevel.js';
import type { WindowOptions } from '../src/redact/windows/windowOptions.js';
import type { Transcript } from '../src/transcript/types.js';
import { ffmpeg, tempDir } from '../test/helpers/audio.js';
import { loadReferences } from '../test/helpers/devData.js';

const kinds = [...DEFAULT_KINDS];
const plan = (level: WindowLevel, change: Partial<WindowOptions> = {}) => {
  const p = windowPlan(level, kinds)!;
  return { kinds: p.kinds, options: { ...p.options, ...change } };
};
/** The levels, and the default with one rule taken out at a time (what each rule costs). */
const LEVELS: [string, WindowPlan][] = [
  ['default', plan('default')],
  ['default without payment segments', plan('default', { segmentGapSeconds: 0 })],
  ['default without hint requests', plan('default', { hintRequests: false })],
  ['default without stray digits', plan('default', { strayDigits: false })],
  ['default without cues (number speech only)', plan('default', { cuesEnabled: false, hintRequests: false })],
  ['full (cueWindows: true)', plan('full')],
  ['default on words given as text (a text job)', windowPlan('default', kinds, undefined, true)!],
];

interface Tally {
  words: number;
  masked: number;
  byRule: Map<string, number>;
}

function measure(transcripts: readonly Transcript[], plan: WindowPlan, counted?: Set<object>): Tally {
  const tally: Tally = { words: 0, masked: 0, byRule: new Map() };
  for (const t of transcripts) {
    const windows = findSensitiveWindows(t, plan);
    for (const w of windows) {
      const rule = `${w.source}: ${(w.reason ?? '').replace(/"[^"]*"/g, '"…"').replace(/[0-9]+/g, 'N')}`;
      tally.byRule.set(rule, (tally.byRule.get(rule) ?? 0) + 1);
    }
    for (const ch of t.channels) {
      for (const word of ch.words) {
        if (counted && !counted.has(word)) continue;
        tally.words++;
        if (windows.some((w) => w.channel === ch.channel && word.start < w.end && word.end > w.start)) tally.masked++;
      }
    }
  }
  return tally;
}

function report(set: string, transcripts: readonly Transcript[], counted?: Set<object>) {
  for (const [level, plan] of LEVELS) {
    const t = measure(transcripts, plan, counted);
    const rules = [...t.byRule].map(([r, n]) => `${n}× ${r}`).join('; ') || 'no window';
    console.log(`${set} — ${level}: ${t.masked}/${t.words} words masked (${((100 * t.masked) / Math.max(1, t.words)).toFixed(2)} %); ${rules}`);
  }
}

/**
 * The hand-written set's ASR turns as one two-party call (markup taken out), and which words are in its no-PII
 * turns: only those count (a window over an answer that holds a value is no over-redaction).
 */
function handwrittenCall(confidence: number): { transcript: Transcript; ordinary: Set<object> } {
  const text = fs.readFileSync(path.join(import.meta.dirname, 'handwritten-calls.txt'), 'utf8');
  const turns = text
    .split('\n')
    .filter((l) => l.startsWith('a: '))
    .map((l) => ({ ordinary: !l.includes('{{'), words: l.slice(3).replace(/\{\{[A-Za-z]+\|([^}]*)\}\}/g, '$1').trim().split(/\s+/) }));
  const channels = [0, 1].map((channel) => ({ channel, words: [] as Transcript['channels'][number]['words'] }));
  const ordinary = new Set<object>();
  let t = 0;
  turns.forEach((turn, i) => {
    for (const word of turn.words) {
      const w = { word, start: t, end: t + 0.3, confidence };
      channels[i % 2].words.push(w);
      if (turn.ordinary) ordinary.add(w);
      t += 0.35;
    }
    t += 0.8;
  });
  return { transcript: { channels, audioSeconds: t, model: 'text' } as unknown as Transcript, ordinary };
}

const refs = loadReferences();
if (refs) {
  const dir = tempDir('scrubline-default-windows-');
  const files = [...new Set(refs.map((r) => r.path))];
  // RECOGNIZED=file.json keeps the recognition between runs (the measure itself is instant).
  const cache = process.env.RECOGNIZED;
  let recognized: { wide: Transcript[]; phone: Transcript[] };
  if (cache && fs.existsSync(cache)) recognized = JSON.parse(fs.readFileSync(cache, 'utf8'));
  else {
    recognized = { wide: [], phone: [] };
    for (const file of files) {
      recognized.wide.push(await recognizeFile(file, {}));
      const line = path.join(dir, `${path.basename(file)}.8k.wav`);
      ffmpeg(['-i', file, '-ar', '8000', '-c:a', 'pcm_s16le', line]);
      recognized.phone.push(await recognizeFile(line, {}));
    }
    if (cache) fs.writeFileSync(cache, JSON.stringify(recognized));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const { wide, phone } = recognized;
  report(`dev data as recorded (${files.length} recordings, ${wide[0]?.model} etc.)`, wide);
  report(`dev data on an 8 kHz line (${phone[0]?.model})`, phone);
} else {
  console.log('no dev data: set SCRUBLINE_DEV_DATA');
}
for (const [label, confidence] of [['heard sure', 0.9], ['heard unsure', 0.4]] as const) {
  const call = handwrittenCall(confidence);
  report(`hand-written call, ${call.ordinary.size} words of no-PII turns, ${label}`, [call.transcript], call.ordinary);
}
await closeSharedPool();
