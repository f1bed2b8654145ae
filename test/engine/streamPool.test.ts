// The stream pool runs a PocketSphinx channel with partials on two decoders on two threads (partials; finals):
// partials and finals both arrive, finals as one decoder makes them, and no partial of an utterance arrives
// after its final (the halves run at their own pace; the pool drops such a partial).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';
import { decodeChannels } from '../../src/audio/decode.js';
import { DEFAULT_VAD_PARAMS, detectSpeech } from '../../src/audio/vad.js';
import type { StreamStep } from '../../src/engine/pocketsphinx/streamDecoder.js';
import { decodePcm } from '../../src/engine/pocketsphinx/decoder.js';
import { StreamPool } from '../../src/engine/streamPool.js';
import { devDataSkip, loadReferences } from '../helpers/devData.js';
import { wer } from '../helpers/wer.js';
import { pocketSphinxModel } from '../helpers/models.js';

const skip = devDataSkip();
const RATE = 16000;

const model = pocketSphinxModel;

async function dev(pattern: RegExp): Promise<Int16Array> {
  const file = (loadReferences() ?? []).find((r) => pattern.test(r.audio));
  assert.ok(file, `a dev file matching ${pattern}`);
  return (await decodeChannels(file.path, { sampleRate: RATE })).channels[0];
}

/** The audio through one pool channel in 100 ms chunks, each written when the previous step came back. */
async function run(pool: StreamPool, pcm: Int16Array): Promise<StreamStep[]> {
  const steps: StreamStep[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  const channel = pool.open(
    { engine: 'pocketsphinx', model: model(), vad: DEFAULT_VAD_PARAMS },
    {
      onStep: (step) => {
        steps.push(step);
        wake?.();
      },
      onError: (error) => {
        failure = error;
        wake?.();
      },
    },
  );
  for (let i = 0; i < pcm.length; i += RATE / 10) {
    channel.write(pcm.slice(i, i + RATE / 10));
    // Each chunk goes to the halves alone (a chunk written while one is queued would be joined to it): the next
    // is written once neither half has one waiting. Pace by answers, never by the clock.
    while (channel.pendingSamples > 0 && !failure) await new Promise<void>((resolve) => ((wake = resolve), setTimeout(resolve, 5)));
  }
  steps.push(await channel.finish());
  if (failure) throw failure;
  return steps;
}

describe('stream pool: partials and finals on two threads', { skip }, () => {
  const split = new StreamPool(1, true);
  const single = new StreamPool(1, false);
  after(async () => {
    await split.close();
    await single.close();
  });

  test('partials and finals arrive; no partial of an utterance after its final; the finals close to batch, as one decoder makes them', async () => {
    const pcm = new Int16Array(RATE * 15);
    pcm.set(await dev(/jfk/));
    const steps = await run(split, pcm);
    const finals = steps.flatMap((s) => s.finals);
    assert.ok(finals.length >= 1);
    assert.ok(steps.some((s) => s.partial), 'partials');
    let finalEnd = -1;
    for (const step of steps) {
      if (step.partial) assert.ok(step.partial.start >= finalEnd, 'a partial after its utterance\'s final');
      for (const f of step.finals) finalEnd = Math.max(finalEnd, f.end);
    }
    const words = finals.flatMap((f) => f.words.map((w) => w.word));
    const batch = decodePcm(model(), pcm, detectSpeech(pcm, RATE, DEFAULT_VAD_PARAMS)).words.map((w) => w.word);
    assert.ok(1 - wer(batch, words).wer >= 0.8, `finals agree with batch: ${words.join(' ')}`);
    assert.ok(words.includes('americans'), words.join(' '));
    const one = (await run(single, pcm)).flatMap((s) => s.finals.flatMap((f) => f.words.map((w) => w.word)));
    assert.ok(1 - wer(one, words).wer >= 0.8, `split and single agree: ${one.join(' ')}`);
  });

  test('the finals thread runs at a lower priority than the partials thread (Linux nice, per thread)', async () => {
    // Both pools have run a channel above: exactly the split pool's finals worker gave up priority.
    const nice = threadNices();
    assert.equal(nice.filter((n) => n === 5).length, 1, `thread nice values: ${nice.join(',')}`);
  });
});

/** The nice value of each thread of this process (field 19 of /proc/self/task/<tid>/stat). */
function threadNices(): number[] {
  return fs.readdirSync('/proc/self/task').map((tid) => {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command (which is in parentheses and may hold spaces): state is field 3, nice field 19.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}
