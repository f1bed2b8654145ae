// Finals within a max delay (issue 33): long unpaused speech (two dev recordings run together, one 20 s utterance
// for the endpointer) gets stable-prefix finals before the utterance ends, with the batch transcript's words, no
// word cut, lost or sent twice; a boundary is never put beside a number-like word; the pool's split channel shows
// partials of the rest only. And a stream's first utterance is as good as a later one (the finals' passes
// normalise the cepstral mean over the stretch they decode, so a new stream has no cold start). Real engine, real
// audio; structure and stream time only, never the wall clock.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { concatPcm } from '../../src/audio/concatPcm.js';
import { decodeChannels } from '../../src/audio/decode.js';
import { DEFAULT_VAD_PARAMS, detectSpeech } from '../../src/audio/vad.js';
import { decodePcm, freeWarmDecoders } from '../../src/engine/pocketsphinx/decoder.js';
import { prefixInterval, StreamDecoder, type PassCost, type StepFinal, type StreamStep } from '../../src/engine/pocketsphinx/streamDecoder.js';
import { agreedCount, safeCut } from '../../src/engine/stablePrefix.js';
import { StreamPool } from '../../src/engine/streamPool.js';
import type { Word } from '../../src/transcript/types.js';
import { devDataSkip, loadReferences } from '../helpers/devData.js';
import { pocketSphinxModel } from '../helpers/models.js';
import { wer } from '../helpers/wer.js';

const skip = devDataSkip();
const RATE = 16000;
const CHUNK = RATE / 10;

async function dev(pattern: RegExp): Promise<Int16Array> {
  const file = (loadReferences() ?? []).find((r) => pattern.test(r.audio));
  assert.ok(file, `a dev file matching ${pattern}`);
  return (await decodeChannels(file.path, { sampleRate: RATE })).channels[0];
}

/** The final-pass work of the latest decode() (bench/stream-prefix-cost.ts reports it per second of audio). */
let lastCost: PassCost | undefined;

/** The audio through one decoder in 100 ms chunks (no arrival times: stream time is the clock). */
function decode(pcm: Int16Array, maxDelay: number): StreamStep[] {
  const decoder = new StreamDecoder(pocketSphinxModel(), DEFAULT_VAD_PARAMS, 'phrases', true, Infinity, maxDelay);
  lastCost = decoder.cost;
  try {
    const steps: StreamStep[] = [];
    for (let i = 0; i < pcm.length; i += CHUNK) steps.push(decoder.accept(pcm.slice(i, i + CHUNK)));
    steps.push(decoder.finish());
    return steps;
  } finally {
    decoder.free();
  }
}

const w = (word: string, start: number, end: number): Word => ({ word, start, end, confidence: 1 });
const text = (words: readonly Word[]) => words.map((x) => x.word);

describe('stable-prefix finals within maxDelay', { skip }, () => {
  after(() => freeWarmDecoders());

  test('long unpaused speech: prefix finals before the utterance ends, batch words, none cut, lost or twice, each sent within maxDelay of stream time', async () => {
    const pcm = concatPcm([await dev(/LJ001-0001/), await dev(/LJ001-0003/), new Int16Array(RATE)]);
    const segments = detectSpeech(pcm, RATE, DEFAULT_VAD_PARAMS);
    assert.equal(segments.length, 1, 'one utterance for the endpointer');
    const batch = decodePcm(pocketSphinxModel(), pcm, segments).words;
    const maxDelay = 2;
    const steps = decode(pcm, maxDelay);
    // The cost counted: overlapping windows every prefixInterval decode the speech more than once over, and the
    // closing pass comes on top of them.
    const speechFrames = (segments[0].end - segments[0].start) * 100;
    assert.ok(lastCost!.prefixPasses >= 3 && lastCost!.prefixFrames > speechFrames, JSON.stringify(lastCost));
    assert.ok(lastCost!.passes > lastCost!.prefixPasses && lastCost!.frames > lastCost!.prefixFrames, JSON.stringify(lastCost));
    const finals = steps.flatMap((s) => s.finals.map((f) => ({ f, heard: s.heardSeconds })));
    const prefixes = finals.filter((x) => x.f.prefix);
    const closing = finals.filter((x) => !x.f.prefix);
    assert.equal(closing.length, 1, 'one closing final');
    assert.ok(prefixes.length >= 3, `${prefixes.length} prefix finals`);
    // Order: every prefix final comes before the closing one, and they tile the utterance in time.
    assert.equal(finals.at(-1)!.f, closing[0].f, 'the closing final is last');
    for (let i = 1; i < finals.length; i++) assert.equal(finals[i].f.start, finals[i - 1].f.end, 'each final starts where the one before ended');
    assert.equal(finals[0].f.start, segments[0].start);
    for (const { f } of prefixes) assert.equal(f.prefix!.utteranceStart, segments[0].start);
    // Words: in time order, each in one final, inside its final's span; the count the prefix reports is what was sent.
    const words = finals.flatMap((x) => x.f.words);
    for (let i = 1; i < words.length; i++) assert.ok(words[i].start >= words[i - 1].end - 0.05, `${words[i - 1].word} then ${words[i].word}: in order, none twice`);
    for (const { f } of finals) for (const x of f.words) assert.ok(x.start >= f.start - 0.11 && x.end <= f.end + 1e-6, `${x.word} inside its final`);
    let sent = 0;
    for (const { f } of prefixes) assert.equal(f.prefix!.words, (sent += f.words.length));
    // Batch quality: the finals agree with the batch transcript of the same audio.
    const agreement = 1 - wer(text(batch), text(words)).wer;
    assert.ok(agreement >= 0.9, `agreement with batch ${(agreement * 100).toFixed(1)}%: ${text(words).join(' ')}`);
    // Within the delay, in stream time (no spoken digit here to hold a boundary back): a word goes at the
    // latest at the first prefix pass after it is maxDelay old (passes every prefixInterval of audio).
    for (const { f, heard } of prefixes) for (const x of f.words) assert.ok(heard - x.end <= maxDelay + prefixInterval(maxDelay) + 0.2, `${x.word} (ended ${x.end}) sent at ${heard}`);
  });

  test('no maxDelay (Infinity): one final at the end of the utterance, as before', async () => {
    const pcm = concatPcm([await dev(/LJ001-0002/), new Int16Array(RATE)]);
    const finals = decode(pcm, Infinity).flatMap((s) => s.finals);
    assert.equal(finals.length, 1);
    assert.equal(finals[0].prefix, undefined);
    assert.equal(lastCost!.prefixPasses, 0, 'no prefix pass without maxDelay');
    assert.equal(lastCost!.prefixFrames, 0);
  });

  test("a stream's first utterance is as good as a later one: the same audio twice gives the same words, the batch transcript's", async () => {
    const jfk = await dev(/jfk/);
    const pcm = concatPcm([jfk, new Int16Array(RATE * 2), jfk, new Int16Array(RATE)]);
    const offset = (jfk.length + RATE * 2) / RATE;
    const alone = decodePcm(pocketSphinxModel(), jfk, detectSpeech(jfk, RATE, DEFAULT_VAD_PARAMS)).words;
    const finals: StepFinal[] = decode(pcm, Infinity).flatMap((s) => s.finals);
    const first = finals.flatMap((f) => f.words).filter((x) => x.end <= offset);
    const second = finals.flatMap((f) => f.words).filter((x) => x.start >= offset);
    assert.ok(first.length > 10);
    assert.deepEqual(text(first), text(second), 'the first utterance as the second');
    assert.deepEqual(text(first), text(alone), 'the first utterance as batch decodes the recording');
    // With prefix finals (maxDelay 4 s) the first utterance is still of batch quality.
    const withPrefixes = decode(concatPcm([jfk, new Int16Array(RATE)]), 4).flatMap((s) => s.finals.flatMap((f) => f.words));
    const agreement = 1 - wer(text(alone), text(withPrefixes)).wer;
    assert.ok(agreement >= 0.9, `first utterance with prefix finals: ${(agreement * 100).toFixed(1)}% (${text(withPrefixes).join(' ')})`);
  });

  test('split channel (pool): prefix finals pass, and partials after one are of the rest of the utterance', async () => {
    const pool = new StreamPool(1, true);
    try {
      const pcm = concatPcm([await dev(/LJ001-0001/), await dev(/LJ001-0003/), new Int16Array(RATE)]);
      const steps: StreamStep[] = [];
      let failure: Error | undefined;
      const channel = pool.open({ engine: 'pocketsphinx', model: pocketSphinxModel(), vad: DEFAULT_VAD_PARAMS, maxDelay: 2 }, { onStep: (s) => steps.push(s), onError: (e) => (failure = e) });
      for (let i = 0; i < pcm.length; i += CHUNK) {
        channel.write(pcm.slice(i, i + CHUNK));
        while (channel.pendingSamples > 0 && !failure) await new Promise((r) => setTimeout(r, 5));
      }
      steps.push(await channel.finish());
      if (failure) throw failure;
      const finals = steps.flatMap((s) => s.finals);
      assert.ok(finals.filter((f) => f.prefix).length >= 2, 'prefix finals through the pool');
      assert.ok(!finals.at(-1)!.prefix, 'the closing final last');
      let prefixEnd = -1;
      for (const s of steps) {
        if (s.partial && prefixEnd >= 0) assert.ok(s.partial.start >= prefixEnd - 1e-6, `a partial from ${s.partial.start} after a prefix final ending ${prefixEnd}`);
        for (const f of s.finals) prefixEnd = f.prefix ? f.end : -1;
      }
    } finally {
      await pool.close();
    }
  });
});

describe('stable prefixes: pure stages', () => {
  test('agreement: same words, same ends, none near the earlier window\'s cut', () => {
    const prev = { from: 0, windowEnd: 3, words: [w('a', 0.2, 0.5), w('b', 0.6, 1.0), w('c', 1.1, 2.8)] };
    const next = { from: 0, windowEnd: 4, words: [w('a', 0.2, 0.52), w('b', 0.6, 1.0), w('c', 1.1, 2.8), w('d', 3, 3.5)] };
    assert.equal(agreedCount(prev, next), 2, 'c ends within the cut guard of the earlier window');
    assert.equal(agreedCount(prev, { ...next, words: [w('a', 0.2, 0.5), w('x', 0.6, 1.0)] }), 1);
    assert.equal(agreedCount(prev, { ...next, from: 0.5 }), 0, 'another start: nothing agreed');
  });

  test('a boundary is held back from number-like words and name cues, never moved forward', () => {
    const words = ['my', 'card', 'is', 'four', 'one', 'then', 'some', 'more', 'words'].map((x, i) => w(x, i, i + 0.5));
    assert.equal(safeCut(words, 9), 9);
    assert.equal(safeCut(words, 5), 2, 'not after "four one" nor before "four"');
    assert.equal(safeCut(words, 4), 2, 'not after "four"');
    assert.equal(safeCut(words, 6), 6, '"then" between: the number is on one side');
    assert.equal(safeCut(words, 7), 7);
    const lookalikes = ['pay', 'for', 'four', 'two', 'now', 'wait', 'for', 'me'].map((x, i) => w(x, i, i + 0.5));
    assert.equal(safeCut(lookalikes, 2), 0, '"for" beside "four" may be a digit: held back');
    assert.equal(safeCut(lookalikes, 7), 7, '"for" among ordinary words is one');
    const named = ['so', 'hello', 'my', 'name', 'is', 'john', 'smith', 'and', 'i', 'call', 'about', 'a', 'bill'].map((x, i) => w(x, i, i + 0.5));
    assert.equal(safeCut(named, 7), 2, 'not inside "my name is john smith"');
    assert.equal(safeCut(named, 10), 10);
  });
});
