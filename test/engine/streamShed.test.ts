// Live finals on time (pocketsphinx/streamDecoder.ts, 'phrases'): a phrase's pass that would end after the final is
// due (utterance end + uttmaxsilence + the deadline) is shed and the incremental decoder's words stand there; on a
// split channel (engine/streamPool.ts) the finals half has none of its own, and the pool fills the stretch with the
// partials half's words of the same utterance. Lateness is made here on purpose, never by timing the machine: the
// chunks' arrival times are an hour old, or the deadline is an hour in the past; the opposite cases (no arrival
// times, no deadline) must shed nothing. No word may be lost either way.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { concatPcm } from '../../src/audio/concatPcm.js';
import { decodeChannels } from '../../src/audio/decode.js';
import { DEFAULT_VAD_PARAMS } from '../../src/audio/vad.js';
import { freeWarmDecoders } from '../../src/engine/pocketsphinx/decoder.js';
import { StreamDecoder, type StepFinal, type StreamStep } from '../../src/engine/pocketsphinx/streamDecoder.js';
import { StreamPool } from '../../src/engine/streamPool.js';
import { devDataSkip, loadReferences } from '../helpers/devData.js';
import { pocketSphinxModel } from '../helpers/models.js';

const skip = devDataSkip();
const RATE = 16000;
const CHUNK = RATE / 10;
const HOUR_MS = 3_600_000;

async function dev(pattern: RegExp): Promise<Int16Array> {
  const file = (loadReferences() ?? []).find((r) => pattern.test(r.audio));
  assert.ok(file, `a dev file matching ${pattern}`);
  return (await decodeChannels(file.path, { sampleRate: RATE })).channels[0];
}

/** Two dev recordings with pauses: several phrases and utterances. */
async function audio(): Promise<Int16Array> {
  const parts = [await dev(/jfk/), new Int16Array(RATE * 2), await dev(/LJ001-0003/), new Int16Array(RATE)];
  return concatPcm(parts);
}

/** One decoder (partials and finals), chunk by chunk; `arrivedAt(i)`: when chunk i arrived (none: not given). */
function decode(pcm: Int16Array, deadlineMs: number, arrivedAt?: (i: number) => number, finals: 'phrases' | 'none' = 'phrases'): StreamStep[] {
  const decoder = new StreamDecoder(pocketSphinxModel(), DEFAULT_VAD_PARAMS, finals, true, deadlineMs);
  try {
    const steps: StreamStep[] = [];
    for (let i = 0; i * CHUNK < pcm.length; i++) {
      const chunk = pcm.slice(i * CHUNK, (i + 1) * CHUNK);
      steps.push(decoder.accept(chunk, arrivedAt ? [chunk.length, arrivedAt(i)] : undefined));
    }
    steps.push(decoder.finish());
    return steps;
  } finally {
    decoder.free();
  }
}

const wordsOf = (finals: StepFinal[]) => finals.flatMap((f) => f.words.map((w) => w.word));

describe('live finals shed when late', { skip }, () => {
  after(() => freeWarmDecoders());

  test('one decoder, every chunk an hour old: every phrase is shed, the final holds the incremental decoder\'s words', async () => {
    const pcm = await audio();
    const old = Date.now() - HOUR_MS;
    const shedFinals = decode(pcm, 300, (i) => old + i * 100).flatMap((s) => s.finals);
    assert.ok(shedFinals.length >= 2, `${shedFinals.length} finals`);
    for (const f of shedFinals) {
      assert.ok((f.shedSeconds ?? 0) > 0 && f.shedSeconds! <= f.end - f.start + 0.001, `final ${f.start}-${f.end} shed ${f.shedSeconds}`);
      assert.equal(f.shed, undefined, 'the decoder filled its own shed stretches');
    }
    // The same words as the partials decoder ends its utterances with ('none' reports them): nothing lost.
    const live = decode(pcm, Infinity, undefined, 'none').flatMap((s) => s.liveFinals ?? []);
    const liveWords = live.flatMap((f) => f.words.map((w) => w.word));
    assert.ok(liveWords.length >= 10, liveWords.join(' '));
    assert.deepEqual(wordsOf(shedFinals), liveWords);
  });

  test('no arrival times, or no deadline: nothing is shed (batch-quality passes, however late)', async () => {
    const pcm = await audio();
    const old = Date.now() - HOUR_MS;
    const unknown = decode(pcm, 0).flatMap((s) => s.finals);
    const never = decode(pcm, Infinity, (i) => old + i * 100).flatMap((s) => s.finals);
    for (const f of [...unknown, ...never]) assert.equal(f.shedSeconds, undefined);
    assert.deepEqual(wordsOf(never), wordsOf(unknown));
    assert.ok(wordsOf(never).includes('americans'), wordsOf(never).join(' '));
  });

  test('a client sending faster than real time is judged by real-time pace, not by when its audio came', async () => {
    // Two minutes of quiet, then speech, all sent at once a minute ago with no deadline slack: by arrival every
    // phrase is a minute late, by real-time pace from the first chunk it is due a minute from now (decoding the
    // speech takes seconds even on a busy machine).
    const speech = await dev(/jfk/);
    const pcm = new Int16Array(RATE * 121 + speech.length);
    pcm.set(speech, RATE * 120);
    const decoder = new StreamDecoder(pocketSphinxModel(), DEFAULT_VAD_PARAMS, 'phrases', true, 0);
    try {
      const steps = [decoder.accept(pcm, [pcm.length, Date.now() - 60_000]), decoder.finish()];
      const finals = steps.flatMap((s) => s.finals);
      assert.ok(finals.length >= 1);
      for (const f of finals) assert.equal(f.shedSeconds, undefined, `final at ${f.start}s shed`);
      assert.ok(wordsOf(finals).includes('americans'), wordsOf(finals).join(' '));
    } finally {
      decoder.free();
    }
  });

  describe('split channel (two threads)', () => {
    const pool = new StreamPool(1, true);
    after(() => pool.close());

    async function run(pcm: Int16Array, deadlineMs: number): Promise<StepFinal[]> {
      const finals: StepFinal[] = [];
      let failure: Error | undefined;
      const channel = pool.open(
        { engine: 'pocketsphinx', model: pocketSphinxModel(), vad: DEFAULT_VAD_PARAMS, deadlineMs },
        { onStep: (step) => finals.push(...step.finals), onError: (error) => (failure = error) },
      );
      for (let i = 0; i < pcm.length; i += CHUNK) {
        channel.write(pcm.slice(i, i + CHUNK));
        // One chunk at a time (see streamPool.test.ts): the halves decode the same chunks as the lone decoder.
        while (channel.pendingSamples > 0 && !failure) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      finals.push(...(await channel.finish()).finals);
      if (failure) throw failure;
      return finals;
    }

    test('a deadline an hour past: the finals half sheds every pass, the pool fills the stretches with the partials half\'s words', async () => {
      const pcm = await audio();
      const finals = await run(pcm, -HOUR_MS);
      assert.ok(finals.length >= 2);
      for (const f of finals) {
        assert.ok((f.shedSeconds ?? 0) > 0, `final ${f.start}-${f.end} shed`);
        assert.equal(f.shed, undefined, 'no stretch left unfilled');
        for (let i = 1; i < f.words.length; i++) assert.ok(f.words[i].start >= f.words[i - 1].start, 'words in time order');
      }
      const live = decode(pcm, Infinity, undefined, 'none').flatMap((s) => s.liveFinals ?? []);
      const liveWords = live.flatMap((f) => f.words.map((w) => w.word));
      // The partials half decoded the same chunks as the lone decoder: the same words.
      assert.deepEqual(wordsOf(finals), liveWords);
    });

    test('no deadline: nothing shed, the passes\' words', async () => {
      const pcm = await audio();
      const finals = await run(pcm, Infinity);
      for (const f of finals) assert.equal(f.shedSeconds, undefined);
      assert.ok(wordsOf(finals).includes('americans'), wordsOf(finals).join(' '));
    });
  });
});

// Shedding trades a final's words for its latency: never the default (a live call's finals are batch quality unless
// an operator sets SCRUBLINE_STREAM_FINAL_DEADLINE_MS).
describe('the final deadline by default', () => {
  test('unset or off: never shed; a number: that deadline', async () => {
    const { defaultFinalDeadlineMs } = await import('../../src/engine/pocketsphinx/engine.js');
    const saved = process.env.SCRUBLINE_STREAM_FINAL_DEADLINE_MS;
    try {
      delete process.env.SCRUBLINE_STREAM_FINAL_DEADLINE_MS;
      assert.equal(defaultFinalDeadlineMs(), Infinity);
      process.env.SCRUBLINE_STREAM_FINAL_DEADLINE_MS = 'off';
      assert.equal(defaultFinalDeadlineMs(), Infinity);
      process.env.SCRUBLINE_STREAM_FINAL_DEADLINE_MS = '700';
      assert.equal(defaultFinalDeadlineMs(), 700);
    } finally {
      if (saved === undefined) delete process.env.SCRUBLINE_STREAM_FINAL_DEADLINE_MS;
      else process.env.SCRUBLINE_STREAM_FINAL_DEADLINE_MS = saved;
    }
  });
});
