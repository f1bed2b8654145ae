// textinfo / textinfoB figures: turns, words, wordtime, silence, overtalk. Expected values are worked out by
// hand from the fixture, and wordtime/silence are cross-checked on a 1 ms grid (independent of the interval code).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { computeTextInfo, overtalkEvents } from '../../src/transcript/textinfo.js';
import { buildUtterances } from '../../src/transcript/utterances.js';
import { syntheticCall } from './fixture.js';

/** Seconds of [0, total) covered by any span, sampled every millisecond. */
function covered(spans: { start: number; end: number }[], total: number): number {
  let n = 0;
  for (let ms = 0; ms < total * 1000; ms++) {
    const t = (ms + 0.5) / 1000;
    if (spans.some((s) => t >= s.start && t < s.end)) n++;
  }
  return n / 1000;
}

const near = (actual: number | undefined, expected: number, tolerance = 0.002) =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) <= tolerance, `${actual} != ${expected}`);

describe('textinfo', () => {
  const call = syntheticCall();
  const utterances = buildUtterances(call);
  const info = computeTextInfo(call, utterances);
  const [agent, caller] = info.channels.map((c) => c.textinfo);

  test('turns and words', () => {
    // rows by channel: 0 1 0 1 1 0 0 1 -> runs 0|1|0|11|00|1
    assert.equal(info.overall.turns, 6);
    assert.equal(agent.turns, 3);
    assert.equal(caller.turns, 3);
    assert.equal(agent.words, 29);
    assert.equal(caller.words, 33);
    assert.equal(info.overall.words, 62);
  });

  test('wordtime: [seconds, share of the recording]', () => {
    assert.deepEqual(agent.wordtime, [8.7, 0.29]);
    assert.deepEqual(caller.wordtime, [9.9, 0.33]);
    // union over channels: 8.7 + 9.9 - 1.4 s of words spoken at once
    assert.deepEqual(info.overall.wordtime, [17.2, 0.573]);
    near(info.overall.wordtime![0], covered(call.channels.flatMap((c) => c.words), 30));
  });

  test('silence: time outside utterances, per channel and for the call', () => {
    assert.deepEqual(agent.silence, [18.8, 0.627]);
    assert.deepEqual(caller.silence, [17.2, 0.573]);
    assert.deepEqual(info.overall.silence, [7.9, 0.263]);
    near(info.overall.silence![0], 30 - covered(utterances, 30));
    near(agent.silence![0], 30 - covered(utterances.filter((u) => u.channel === 0), 30));
  });

  test('overtalk: the caller starts 0.4 s before the agent ends; the agent talks over the caller for 1.5 s', () => {
    const events = overtalkEvents(utterances);
    assert.deepEqual(
      events.map((e) => [e.channel, e.over, e.by, Math.round((e.end - e.start) * 1000) / 1000]),
      [
        [1, 0, 1, 0.4],
        [0, 1, 2, 1.5],
      ],
    );
    assert.deepEqual(info.overall.overtalk, { count: [2, 0.333], avgtime: 0.95, time: [1.9, 0.063] });
    assert.deepEqual(agent.overtalk, { count: [1, 0.333], avgtime: 1.5, time: [1.5, 0.05] });
    assert.deepEqual(caller.overtalk, { count: [1, 0.333], avgtime: 0.4, time: [0.4, 0.013] });
    // overtalk time is the time both channels are inside an utterance
    const both = covered(utterances.filter((u) => u.channel === 0), 30) + covered(utterances.filter((u) => u.channel === 1), 30) - covered(utterances, 30);
    near(info.overall.overtalk!.time![0], both);
  });

  test('a silent recording', () => {
    const empty = computeTextInfo({ audioSeconds: 10, channels: [{ channel: 0, words: [], segments: [] }] }, []);
    assert.deepEqual(empty.overall, { turns: 0, words: 0, wordtime: [0, 0], silence: [10, 1], overtalk: { count: [0, 0], avgtime: 0, time: [0, 0] } });
  });
});
