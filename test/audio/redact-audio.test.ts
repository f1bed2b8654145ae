// Audio redaction: spans become silence or a tone on their own channel; duration, rate, channels and codec
// are kept; every sample outside the spans is unchanged.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeAudio } from '../../src/audio/probe.js';
import { decodeForRedaction, mergeSpans, redactAudio } from '../../src/audio/redactAudio.js';
import { readWavLayout } from '../../src/audio/wavLayout.js';
import { ffmpeg, hasTool, tempDir } from '../helpers/audio.js';
import { required } from '../helpers/require.js';

/** The samples of one channel as 16-bit PCM at the file's own rate. */
function pcm(file: string, channel: number): Int16Array {
  const out = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-af', `pan=mono|c0=c${channel}`, '-f', 's16le', '-acodec', 'pcm_s16le', '-']);
  return new Int16Array(out.buffer, out.byteOffset, out.length / 2);
}

describe('audio redaction', { skip: required(!hasTool('ffmpeg') && 'no ffmpeg') }, () => {
  let dir: string;
  let source: string;
  const rate = 16000;
  const spans = [
    { channel: 0, start: 1.0, end: 1.5 },
    { channel: 1, start: 3.0, end: 3.2 },
    { channel: 1, start: 3.4, end: 3.6 },
  ];
  before(() => {
    dir = tempDir();
    source = path.join(dir, 'call.wav');
    // A different sound on each channel: 300 Hz left, noise right.
    ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=300:sample_rate=${rate}:duration=5`, '-f', 'lavfi', '-i', `anoisesrc=color=pink:sample_rate=${rate}:duration=5:amplitude=0.3`,
      '-filter_complex', '[0:a][1:a]join=inputs=2:channel_layout=stereo[a]', '-map', '[a]', '-c:a', 'pcm_s16le', source]);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('spans are padded, clipped and merged per channel by the minimum distance', () => {
    assert.deepEqual(mergeSpans(spans, 2, 5, 0.05, 0.3).map((c) => c.map((s) => [s.start, +s.end.toFixed(2)])), [[[0.95, 1.55]], [[2.95, 3.65]]]);
    assert.deepEqual(mergeSpans([{ channel: 0, start: 4.9, end: 5.5 }], 1, 5, 0.1, 0.3)[0], [{ channel: 0, start: 4.8, end: 5 }]);
  });

  test('a span on a channel the recording does not have is masked on every channel, never dropped', () => {
    const merged = mergeSpans([{ channel: 1, start: 1, end: 2 }], 1, 5, 0, 0.3);
    assert.deepEqual(merged, [[{ channel: 0, start: 1, end: 2 }]]);
    const stereo = mergeSpans([{ channel: 7, start: 1, end: 2 }, { channel: -1, start: 3, end: 3.5 }], 2, 5, 0, 0.3);
    assert.deepEqual(stereo.map((c) => c.map((s) => [s.start, s.end])), [[[1, 2], [3, 3.5]], [[1, 2], [3, 3.5]]]);
  });

  for (const mode of ['silence', 'tone'] as const) {
    test(`${mode}: inside the spans the speech is gone, outside nothing changed, the format is kept`, async () => {
      const out = path.join(dir, `redacted-${mode}.wav`);
      const merged = await redactAudio(source, out, spans, { mode, padding: 0.05, minDistance: 0.3 });
      const [a, b] = [await probeAudio(source), await probeAudio(out)];
      assert.deepEqual([b.codec, b.sampleRate, b.channels], [a.codec, a.sampleRate, a.channels]);
      assert.ok(Math.abs(a.durationSeconds - b.durationSeconds) < 0.01, `duration ${a.durationSeconds} -> ${b.durationSeconds}`);
      for (const channel of [0, 1]) {
        const before = pcm(source, channel);
        const after = pcm(out, channel);
        assert.equal(after.length, before.length);
        const inside = (i: number) => merged[channel].some((s) => i >= Math.ceil(s.start * rate) + 2 && i < Math.floor(s.end * rate) - 2);
        const near = (i: number) => merged[channel].some((s) => i >= Math.floor(s.start * rate) - 2 && i < Math.ceil(s.end * rate) + 2);
        let changedOutside = 0;
        let leakedInside = 0;
        let toneEnergy = 0;
        for (let i = 0; i < before.length; i++) {
          if (inside(i)) {
            if (mode === 'silence' && after[i] !== 0) leakedInside++;
            if (mode === 'tone') toneEnergy += Math.abs(after[i]);
            if (mode === 'tone' && after[i] === before[i] && before[i] !== 0) leakedInside++;
          } else if (!near(i) && after[i] !== before[i]) {
            changedOutside++;
          }
        }
        assert.equal(changedOutside, 0, `channel ${channel}: samples outside the spans changed`);
        assert.ok(leakedInside < 50, `channel ${channel}: ${leakedInside} original samples left inside the spans`);
        if (mode === 'tone') assert.ok(toneEnergy > 0, 'the tone is there');
      }
    });
  }

  test('mu-law telephone audio stays mu-law, the span silenced on its channel only', async () => {
    const mulaw = path.join(dir, 'call-8k.wav');
    ffmpeg(['-i', source, '-ar', '8000', '-c:a', 'pcm_mulaw', mulaw]);
    const out = path.join(dir, 'call-8k-redacted.wav');
    await redactAudio(mulaw, out, [{ channel: 1, start: 2, end: 2.5 }], { mode: 'silence' });
    const probe = await probeAudio(out);
    assert.deepEqual([probe.codec, probe.sampleRate, probe.channels], ['pcm_mulaw', 8000, 2]);
    const left = pcm(out, 0);
    const right = pcm(out, 1);
    const mid = Math.round(2.25 * 8000);
    assert.ok(Math.abs(right[mid]) <= 8 && Math.abs(right[mid + 100]) <= 8, 'the right channel is silent in the span');
    assert.deepEqual(left, pcm(mulaw, 0), 'the left channel is untouched');
  });

  // WAV files of PCM and G.711 are edited in place: the redacted copy is the source byte for byte except the
  // samples of the spans, which hold the tone (or silence) in the file's own format.
  for (const codec of ['pcm_s16le', 'pcm_u8', 'pcm_mulaw', 'pcm_alaw'] as const) {
    test(`${codec} WAV: edited in place, every byte outside the spans unchanged, the spans replaced on their channel`, async () => {
      const input = path.join(dir, `inplace-${codec}.wav`);
      // A LIST chunk before the data (ffmpeg writes one with metadata): the data is found wherever it lies.
      ffmpeg(['-i', source, '-ar', '8000', '-c:a', codec, '-metadata', 'title=call', input]);
      const layout = await readWavLayout(input);
      assert.ok(layout, 'the layout is read');
      assert.equal(layout.format, codec);
      const decoded = await decodeForRedaction(input);
      assert.ok(decoded.wav, 'the in-place path is taken');
      // The samples read for keypad detection are what ffmpeg's decoder gives.
      const viaFfmpeg = execFileSync('ffmpeg', ['-v', 'error', '-i', input, '-f', 's16le', '-acodec', 'pcm_s16le', '-']);
      assert.deepEqual(Buffer.from(decoded.samples.buffer, decoded.samples.byteOffset, decoded.samples.byteLength), viaFfmpeg);
      for (const mode of ['silence', 'tone'] as const) {
        const out = path.join(dir, `inplace-${codec}-${mode}.wav`);
        const merged = await redactAudio(input, out, [{ channel: 1, start: 2, end: 2.5 }], { mode, padding: 0 });
        assert.deepEqual(merged[1], [{ channel: 1, start: 2, end: 2.5 }]);
        const [a, b] = [fs.readFileSync(input), fs.readFileSync(out)];
        assert.equal(b.length, a.length, 'same size');
        const from = layout.dataOffset + 2 * 8000 * layout.blockAlign;
        const to = layout.dataOffset + 2.5 * 8000 * layout.blockAlign;
        let changedOutside = 0;
        let keptInside = 0;
        for (let i = 0; i < a.length; i++) {
          const inSpan = i >= from && i < to && ((i - layout.dataOffset) % layout.blockAlign) >= layout.bytesPerSample;
          if (!inSpan && a[i] !== b[i]) changedOutside++;
        }
        assert.equal(changedOutside, 0, 'no byte outside the right channel span changed (header, left channel, rest)');
        const right = pcm(out, 1);
        const original = pcm(input, 1);
        for (let i = 2 * 8000; i < 2.5 * 8000; i++) {
          if (mode === 'silence' && Math.abs(right[i]) > 8 * 256) keptInside++; // u8's zero is a 256-step
          if (mode === 'tone' && right[i] === original[i] && original[i] !== 0) keptInside++;
        }
        assert.ok(keptInside < 50, `${keptInside} original samples left inside the span`);
      }
    });
  }

  test('a WAV whose header declares no data size (a recorder that never finished) is edited over what the file holds', async () => {
    const input = path.join(dir, 'streamed.wav');
    ffmpeg(['-i', source, '-ar', '8000', '-c:a', 'pcm_mulaw', input]);
    const bytes = fs.readFileSync(input);
    const data = bytes.indexOf('data', 12, 'latin1');
    bytes.writeUInt32LE(0xffffffff, data + 4);
    fs.writeFileSync(input, bytes);
    const layout = await readWavLayout(input);
    assert.ok(layout);
    assert.equal(layout.dataBytes, bytes.length - (data + 8));
  });

  test('a WAV in another sample format (24-bit) goes through ffmpeg and keeps its format', async () => {
    const input = path.join(dir, 'call-24.wav');
    ffmpeg(['-i', source, '-c:a', 'pcm_s24le', input]);
    assert.equal(await readWavLayout(input), undefined);
    const out = path.join(dir, 'call-24-redacted.wav');
    await redactAudio(input, out, [{ channel: 0, start: 1, end: 1.5 }], { mode: 'silence' });
    assert.equal((await probeAudio(out)).codec, 'pcm_s24le');
    const left = pcm(out, 0);
    assert.ok(Math.abs(left[Math.round(1.25 * rate)]) <= 1, 'silenced');
  });
});
