// Voice activity segmentation on synthetic tone/silence patterns: the engine parameters mean what V-Blaze says.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_VAD_PARAMS, detectSpeech, frameEnergies, groupSegments, vadParamsFrom } from '../../src/audio/vad.js';

const RATE = 16000;

/** Builds PCM from pieces: [seconds, amplitude] of a 300 Hz tone (amplitude 0: silence). */
function pcm(...pieces: [number, number][]): Int16Array {
  const total = pieces.reduce((n, [s]) => n + Math.round(s * RATE), 0);
  const out = new Int16Array(total);
  let at = 0;
  for (const [seconds, amp] of pieces) {
    const n = Math.round(seconds * RATE);
    for (let i = 0; i < n; i++) out[at + i] = Math.round(amp * Math.sin((2 * Math.PI * 300 * (at + i)) / RATE));
    at += n;
  }
  return out;
}

const near = (actual: number, expected: number, tol = 0.021) => assert.ok(Math.abs(actual - expected) <= tol, `${actual} ≈ ${expected}`);

describe('voice activity segmentation', () => {
  test('silence gives no segments; so does a steady DC offset', () => {
    assert.deepEqual(detectSpeech(pcm([3, 0]), RATE), []);
    assert.deepEqual(detectSpeech(new Int16Array(RATE * 2).fill(5000), RATE), []);
    assert.deepEqual(detectSpeech(new Int16Array(0), RATE), []);
  });

  test('one burst is one segment, padded by uttpadding', () => {
    const segs = detectSpeech(pcm([1, 0], [1, 3000], [1, 0]), RATE);
    assert.equal(segs.length, 1);
    near(segs[0].start, 0.7);
    near(segs[0].end, 2.3);
    const wide = detectSpeech(pcm([1, 0], [1, 3000], [1, 0]), RATE, { uttpadding: 600 });
    near(wide[0].start, 0.4);
    near(wide[0].end, 2.6);
  });

  test('padding stops at the edges of the audio', () => {
    const segs = detectSpeech(pcm([1, 3000], [0.2, 0]), RATE, { uttpadding: 500 });
    assert.deepEqual(segs, [{ start: 0, end: 1.2 }]);
  });

  test('a pause shorter than uttmaxsilence stays inside the utterance; a longer one ends it', () => {
    const short = detectSpeech(pcm([0.5, 0], [1, 3000], [0.5, 0], [1, 3000], [0.5, 0]), RATE);
    assert.equal(short.length, 1);
    const long = detectSpeech(pcm([0.5, 0], [1, 3000], [1.5, 0], [1, 3000], [0.5, 0]), RATE);
    assert.equal(long.length, 2);
    near(long[0].end, 1.8);
    near(long[1].start, 2.7);
    // The same long pause kept inside when uttmaxsilence allows it.
    assert.equal(detectSpeech(pcm([0.5, 0], [1, 3000], [1.5, 0], [1, 3000], [0.5, 0]), RATE, { uttmaxsilence: 2000 }).length, 1);
  });

  test('activity shorter than uttminactivity is noise', () => {
    assert.deepEqual(detectSpeech(pcm([1, 0], [0.2, 8000], [1, 0]), RATE), []);
    assert.equal(detectSpeech(pcm([1, 0], [0.2, 8000], [1, 0]), RATE, { uttminactivity: 100 }).length, 1);
  });

  test('activitylevel is an RMS threshold on 16-bit samples', () => {
    // A tone of amplitude A has RMS A/√2: 200 → 141 (below 175), 300 → 212 (above).
    assert.deepEqual(detectSpeech(pcm([1, 0], [1, 200], [1, 0]), RATE), []);
    assert.equal(detectSpeech(pcm([1, 0], [1, 300], [1, 0]), RATE).length, 1);
    assert.deepEqual(detectSpeech(pcm([1, 0], [1, 300], [1, 0]), RATE, { activitylevel: 1000 }), []);
    const e = frameEnergies(pcm([0.1, 1000]), RATE);
    near(e[3], 1000 / Math.SQRT2, 5);
  });

  test('an utterance longer than uttmaxtime is cut at its quiet moments', () => {
    // 25 s of "speech" with a brief dip every 4 s; uttmaxtime 10 s.
    const pieces: [number, number][] = [[0.5, 0]];
    for (let i = 0; i < 6; i++) pieces.push([3.8, 3000], [0.2, 50]);
    pieces.push([0.5, 0]);
    const audio = pcm(...pieces);
    const segs = detectSpeech(audio, RATE, { uttmaxtime: 10 });
    assert.ok(segs.length >= 3, `${segs.length} segments`);
    for (const s of segs) assert.ok(s.end - s.start <= 10.001, `${s.start}-${s.end} is at most 10 s`);
    // Contiguous: nothing of the speech is lost, and each cut falls in a dip.
    for (let i = 1; i < segs.length; i++) {
      assert.equal(segs[i].start, segs[i - 1].end);
      const inDip = (segs[i].start - 0.5) % 4;
      assert.ok(inDip >= 3.7 || inDip <= 0.1, `cut at ${segs[i].start} s is in a dip`);
    }
    near(segs[0].start, 0.2);
    near(segs[segs.length - 1].end, 24.3 + 0.3); // last tone ends at 24.3 s, then the padding
  });

  test('segments are sorted, disjoint and inside the audio at 8 kHz too', () => {
    const rate = 8000;
    const audio = new Int16Array(rate * 10);
    for (let i = 0; i < audio.length; i++) audio[i] = Math.floor(i / rate) % 3 === 0 ? Math.round(4000 * Math.sin(i)) : 0;
    const segs = detectSpeech(audio, rate);
    assert.ok(segs.length >= 2);
    for (let i = 0; i < segs.length; i++) {
      assert.ok(segs[i].start >= 0 && segs[i].end <= 10 && segs[i].start < segs[i].end);
      if (i > 0) assert.ok(segs[i].start >= segs[i - 1].end);
    }
  });

  test('parameters come from the engine parameters, with defaults for what is missing or unusable', () => {
    assert.deepEqual(vadParamsFrom({}), DEFAULT_VAD_PARAMS);
    assert.deepEqual(vadParamsFrom({ activitylevel: '300', uttpadding: 100, uttmaxsilence: -5, uttmaxtime: 'x' }), {
      ...DEFAULT_VAD_PARAMS,
      activitylevel: 300,
      uttpadding: 100,
    });
    assert.equal(vadParamsFrom({ vadparams: { engine: 'energy', activitylevel: 400 } }).activitylevel, 400);
    assert.equal(vadParamsFrom({ activitylevel: 250, vadparams: { activitylevel: 400 } }).activitylevel, 250);
  });

  test('grouping joins neighbours up to a unit length', () => {
    const segs = [
      { start: 0, end: 4 },
      { start: 5, end: 9 },
      { start: 10, end: 14 },
      { start: 30, end: 31 },
    ];
    assert.deepEqual(groupSegments(segs, 10), [{ start: 0, end: 9 }, { start: 10, end: 14 }, { start: 30, end: 31 }]);
    assert.deepEqual(groupSegments(segs, 60, 2), [{ start: 0, end: 14 }, { start: 30, end: 31 }]);
  });
});
