// The live endpointer shared by PocketSphinx streams and offline sherpa-onnx models in a stream: utterances open
// at speech with their padding, end after uttmaxsilence or uttmaxtime, short bursts are noise, and where a chunk
// boundary falls changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Endpointer, type EndpointEvent } from '../../src/audio/endpointer.js';
import { DEFAULT_VAD_PARAMS } from '../../src/audio/vad.js';

const RATE = 16000;

/** Seconds of silence (number) or of a loud tone ([seconds]). */
function signal(parts: (number | [number])[]): Int16Array {
  const out: number[] = [];
  for (const p of parts) {
    const loud = Array.isArray(p);
    const n = Math.round((loud ? p[0] : p) * RATE);
    for (let i = 0; i < n; i++) out.push(loud ? Math.round(5000 * Math.sin((2 * Math.PI * 440 * i) / RATE)) : 0);
  }
  return Int16Array.from(out);
}

function run(samples: Int16Array, chunk: number, vad = DEFAULT_VAD_PARAMS) {
  const e = new Endpointer(vad, RATE);
  const events: EndpointEvent[] = [];
  for (let at = 0; at < samples.length; at += chunk) events.push(...e.push(samples.subarray(at, at + chunk)));
  events.push(...e.finish());
  const closes = events.filter((x) => x.kind === 'close');
  // Audio of each utterance, between its open and its close.
  const lengths: number[] = [];
  for (const x of events) {
    if (x.kind === 'open') lengths.push(0);
    else if (x.kind === 'audio') lengths[lengths.length - 1] += x.samples.length;
  }
  return { closes, lengths };
}

test('an utterance opens at speech with its padding and ends after uttmaxsilence; a short burst is noise', () => {
  const samples = signal([0.5, [1], 1.5, [0.1], 1.2]);
  const { closes, lengths } = run(samples, 1234);
  assert.equal(closes.length, 2);
  const [speech, click] = closes as Extract<EndpointEvent, { kind: 'close' }>[];
  assert.ok(Math.abs(speech.start - 0.2) < 0.02, `starts 300 ms before the speech: ${speech.start}`);
  assert.ok(Math.abs(speech.end - 2.3) < 0.03, `ends 800 ms after it: ${speech.end}`);
  assert.equal(speech.noise, false);
  assert.equal(lengths[0], Math.round((speech.end - speech.start) * RATE), 'every sample of the utterance is given once');
  assert.equal(click.noise, true, 'a 100 ms burst is under uttminactivity');
});

test('uttmaxtime cuts a long utterance; the stream end closes an open one', () => {
  // 0.2 s of padding, then 3.5 s of speech: cut at 2 s, the rest (1.7 s) ends with the stream.
  const { closes } = run(signal([0.2, [3.5]]), 4000, { ...DEFAULT_VAD_PARAMS, uttmaxtime: 2 });
  assert.deepEqual(
    closes.map((c) => c.kind === 'close' && Math.round((c.end - c.start) * 10) / 10),
    [2, 1.7],
  );
});

test('where chunks begin and end changes nothing', () => {
  const samples = signal([0.3, [0.7], 0.5, [0.6], 1.0, [0.8], 0.2]);
  const whole = run(samples, samples.length);
  for (const chunk of [160, 777, 3200]) assert.deepEqual(run(samples, chunk), whole);
});
