// What the bundled engine hears for spoken digits (issue 31): the defaults suite's clips (test/helpers/spokenNumbers.ts:
// card, SSN, account, CVV and expiry numbers by espeak-ng and festival, 8 kHz with noise) recognized with the default
// model choice, each recognized word that is not a digit word listed with how often, and the longest stretch of each
// seeded number the raw text shows (before any redaction). The look-alikes found feed numberSpeech.ts DIGIT_LOOKALIKES.
//
//   node --import tsx eval/number-homophones.ts      (a minute or two: five short clips)
import fs from 'node:fs';
import { closeSharedPool } from '../src/engine/pool.js';
import { recognizeFile } from '../src/engine/recognize.js';
import { numberWordClass } from '../src/redact/windows/numberSpeech.js';
import { tempDir } from '../test/helpers/audio.js';
import { longestLeak, makeClip, NUMBER_CLIPS } from '../test/helpers/spokenNumbers.js';

const dir = process.env.CLIP_DIR ?? tempDir('scrubline-homophones-');
fs.mkdirSync(dir, { recursive: true });
const heard = new Map<string, number>();
for (const clip of NUMBER_CLIPS) {
  const file = makeClip(dir, clip);
  const t = await recognizeFile(file, {});
  const text = t.channels.map((c) => `[ch${c.channel}] ${c.words.map((w) => `${w.word}${w.confidence !== undefined && w.confidence < 0.5 ? '?' : ''}`).join(' ')}`).join('\n  ');
  console.log(`${clip.name} (${t.model}):\n  ${text}`);
  const raw = t.channels.flatMap((c) => c.words.map((w) => w.word)).join(' ');
  console.log(`  longest raw stretch per number: ${clip.numbers.map((n) => `${n}: ${longestLeak(raw, n)}`).join(', ')}`);
  for (const c of t.channels) for (const w of c.words) if (numberWordClass(w.word) !== 'digit') heard.set(w.word.toLowerCase(), (heard.get(w.word.toLowerCase()) ?? 0) + 1);
}
console.log('\nnon-digit words heard (count):', [...heard].sort((a, b) => b[1] - a[1]).map(([w, n]) => `${w}:${n}`).join(' '));
await closeSharedPool();
