// Probe (issue 17, not a window source): does PocketSphinx keyword spotting of the digit words (kws search, each
// digit scored against a phone loop) tell number turns from ordinary speech without the free decode? Counts
// detections per script turn of the synthesized calls (cached by spoken-numbers-diagnose.ts) and per channel of
// ordinary recordings, at each threshold. README "Spoken numbers" gives what it found: it separates the
// synthesized turns, not ordinary human speech.
//
//   node --import tsx eval/digit-spotting-probe.ts calls 11 12 ...    (SPOKEN_NUMBERS_CACHE as for the diagnosis)
//   node --import tsx eval/digit-spotting-probe.ts files a.wav ...    (8 kHz copies of ordinary speech)
//   THRESHOLDS=1e2,1e4 MIN_HITS=2 VERBOSE=1 ...
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeChannels } from '../src/audio/decode.js';
import { loadPocketSphinx, type Pointer } from '../src/engine/pocketsphinx/binding.js';
import { readSegments } from '../src/engine/pocketsphinx/decoder.js';
import { PocketSphinxEngine } from '../src/engine/pocketsphinx/engine.js';
import type { SyntheticCall } from '../test/helpers/calls.js';

const model = new PocketSphinxEngine().resolve('en-us:telephony');
const lib = loadPocketSphinx();
const [mode, ...inputs] = process.argv.slice(2);
const cacheDir = process.env.SPOKEN_NUMBERS_CACHE ?? '/tmp/scrubline-spoken-numbers';
const minHits = Number(process.env.MIN_HITS ?? 2);
const DIGITS = ['zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'digit-spotting-'));

function spot(decoder: Pointer, pcm: Int16Array) {
  lib.startStream(decoder);
  lib.startUtt(decoder);
  lib.processRaw(decoder, pcm, false, true);
  lib.endUtt(decoder);
  return readSegments(lib, decoder, 0, pcm.length / 16000);
}

for (const threshold of (process.env.THRESHOLDS ?? '1e2,1e4').split(',')) {
  const list = path.join(tmp, `digits-${threshold}.kws`);
  fs.writeFileSync(list, DIGITS.map((w) => `${w} /${threshold}/`).join('\n') + '\n');
  const args = ['-hmm', model.hmm, '-dict', model.dict, '-samprate', '16000', '-frate', '100', '-remove_silence', 'no', '-kws', list, ...(model.mllr ? ['-mllr', model.mllr] : [])];
  const config = lib.parseConfig(args);
  const decoder = lib.init(config);
  lib.freeConfig(config);
  const flagged: Record<string, [number, number]> = {};
  const count = (group: string, hits: number) => {
    const f = (flagged[group] ??= [0, 0]);
    f[0] += hits >= minHits ? 1 : 0;
    f[1]++;
  };
  for (const input of inputs) {
    if (mode === 'calls') {
      const call: SyntheticCall = JSON.parse(fs.readFileSync(path.join(cacheDir, `call-${input}`, 'call.json'), 'utf8'));
      const audio = await decodeChannels(call.wav, { sampleRate: 16000 });
      for (const s of call.script) {
        const pcm = audio.channels[s.channel].subarray(Math.max(0, Math.round((s.start - 0.2) * 16000)), Math.round((s.end + 0.2) * 16000));
        const hits = spot(decoder, pcm);
        const gold = call.gold.find((g) => g.start === s.start && g.channel === s.channel);
        const group = gold ? (gold.kind === 'CVV' || gold.kind === 'DateOfBirth' ? 'number turn (CVV, date)' : 'number turn (card, account, SSN)') : s.channel === call.agentChannel ? 'agent, ordinary' : 'caller, ordinary';
        count(group, hits.length);
        if (process.env.VERBOSE) console.log(threshold, input, group, (pcm.length / 16000).toFixed(1), hits.length, s.text.slice(0, 40), '|', hits.map((h) => h.word).join(' '));
      }
    } else {
      const audio = await decodeChannels(input, { sampleRate: 16000 });
      audio.channels.forEach((pcm, c) => {
        const hits = spot(decoder, pcm);
        count('ordinary recording channel', hits.length);
        if (process.env.VERBOSE) console.log(threshold, path.basename(input), c, (pcm.length / 16000).toFixed(1), hits.length, hits.map((h) => h.word).join(' '));
      });
    }
  }
  lib.free(decoder);
  console.log(`threshold ${threshold}, ${minHits}+ detections flag a turn: ${Object.entries(flagged).map(([g, [f, n]]) => `${g} ${f}/${n}`).join('; ')}`);
}
fs.rmSync(tmp, { recursive: true, force: true });
