// The DTMF detector: every key at telephone and wideband rates, through mu-law, at the edges of the timing
// rules; and nothing on speech, single tones, noise, or the tone that audio redaction writes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DTMF_KEYS, detectDtmf, dtmfFrequencies } from '../../src/audio/dtmf.js';
import { devAudio, ffmpeg, hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { filePcm, keyFile, keyPcm, keyTimes, sinePcm, type KeySequence } from './dtmfSignals.js';
import { required } from '../helpers/require.js';

const ALL = DTMF_KEYS.join('');
const keysOf = (samples: Int16Array, rate: number, options = {}) => detectDtmf(samples, rate, options).map((t) => t.digit).join('');

/** Every key found, in order, and each reported span holds its whole tone and little more. */
function assertFinds(samples: Int16Array, rate: number, seq: KeySequence, slack = 0.03) {
  const tones = detectDtmf(samples, rate);
  assert.equal(tones.map((t) => t.digit).join(''), seq.keys);
  keyTimes(seq).forEach((truth, i) => {
    const found = tones[i];
    assert.ok(found.start <= truth.start + 1e-3 && found.end >= truth.end - 1e-3, `${truth.key}: ${JSON.stringify(found)} does not hold ${truth.start}-${truth.end}`);
    assert.ok(found.start >= truth.start - slack && found.end <= truth.end + slack, `${truth.key}: ${JSON.stringify(found)} is much wider than ${truth.start}-${truth.end}`);
  });
}

describe('DTMF detector', () => {
  test('the keypad frequencies', () => {
    assert.deepEqual(dtmfFrequencies('1'), [697, 1209]);
    assert.deepEqual(dtmfFrequencies('0'), [941, 1336]);
    assert.deepEqual(dtmfFrequencies('#'), [941, 1477]);
    assert.deepEqual(dtmfFrequencies('d'), [941, 1633]);
    assert.throws(() => dtmfFrequencies('x'), RangeError);
  });

  for (const rate of [8000, 16000, 11025, 44100]) {
    test(`all 16 keys at ${rate} Hz, in order, with their times`, () => {
      const seq = { keys: ALL };
      assertFinds(keyPcm(seq, rate), rate, seq);
      // A card number typed fast (50 ms tone, 50 ms pause).
      const fast = { keys: '4539148803436467', on: 0.05, off: 0.05 };
      assertFinds(keyPcm(fast, rate), rate, fast);
    });
  }

  test('quiet, loud, twisted and slightly off-frequency keys are found; beyond the limits they are not', () => {
    const rate = 8000;
    assert.equal(keysOf(keyPcm({ keys: ALL, amplitude: 400 }, rate), rate), ALL, '-38 dBFS per tone');
    assert.equal(keysOf(keyPcm({ keys: ALL, amplitude: 16000 }, rate), rate), ALL, 'near full scale');
    assert.equal(keysOf(keyPcm({ keys: ALL, twistDb: -6 }, rate), rate), ALL, 'column 6 dB below the row');
    assert.equal(keysOf(keyPcm({ keys: ALL, twistDb: 3 }, rate), rate), ALL, 'column 3 dB above the row');
    assert.equal(keysOf(keyPcm({ keys: ALL, offsetPercent: 1.5 }, rate), rate), ALL);
    assert.equal(keysOf(keyPcm({ keys: ALL, offsetPercent: -1.5 }, rate), rate), ALL);
    assert.equal(keysOf(keyPcm({ keys: ALL, amplitude: 150 }, rate), rate), '', 'below -40 dBFS');
    assert.equal(keysOf(keyPcm({ keys: ALL, twistDb: 6 }, rate), rate), '', 'column 6 dB above the row');
    assert.equal(keysOf(keyPcm({ keys: ALL, twistDb: -12 }, rate), rate), '', 'column 12 dB below the row');
    assert.equal(keysOf(keyPcm({ keys: ALL, offsetPercent: 3.5 }, rate), rate), '');
    assert.equal(keysOf(keyPcm({ keys: ALL, offsetPercent: -3.5 }, rate), rate), '');
  });

  test('keys in noise (10 dB SNR) are found; the noise alone gives nothing', () => {
    const rate = 8000;
    const keys = keyPcm({ keys: ALL, amplitude: 4000 }, rate);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const noise = new Int16Array(keys.length);
    for (let i = 0; i < noise.length; i++) noise[i] = Math.round(1265 * Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random()));
    const noisy = keys.map((v, i) => Math.max(-32768, Math.min(32767, v + noise[i])));
    assert.equal(keysOf(noisy, rate), ALL);
    assert.equal(keysOf(noise, rate), '');
    assert.equal(keysOf(noise.map((v) => v * 20), rate), '');
  });

  test('minimum duration: 40 ms presses count, 20 ms ones do not; the option moves the limit', () => {
    for (const rate of [8000, 16000]) {
      assert.equal(keysOf(keyPcm({ keys: ALL, on: 0.04, off: 0.05 }, rate), rate), ALL, `40 ms at ${rate}`);
      assert.equal(keysOf(keyPcm({ keys: ALL, on: 0.02, off: 0.05 }, rate), rate), '', `20 ms at ${rate}`);
      assert.equal(keysOf(keyPcm({ keys: ALL, on: 0.015, off: 0.015 }, rate), rate), '', `15 ms on / 15 ms off at ${rate}`);
    }
    assert.equal(keysOf(keyPcm({ keys: ALL, on: 0.06 }, 8000), 8000, { minDuration: 0.1 }), '');
    assert.equal(keysOf(keyPcm({ keys: ALL, on: 0.12 }, 8000), 8000, { minDuration: 0.1 }), ALL);
  });

  test('gap between presses: the same key twice is two presses after a 40 ms pause, one press across a 10 ms dropout', () => {
    const rate = 8000;
    assert.equal(keysOf(keyPcm({ keys: '1122', on: 0.05, off: 0.04 }, rate), rate), '1122');
    assert.equal(keysOf(keyPcm({ keys: '1122', on: 0.05, off: 0.01 }, rate), rate), '12');
    // Different keys back to back with no pause are still two.
    const a = keyPcm({ keys: '5', on: 0.08, off: 0 }, rate);
    const b = keyPcm({ keys: '9', on: 0.08, off: 0 }, rate);
    const joined = new Int16Array(a.length + b.length + 400);
    joined.set(a, 200);
    joined.set(b, 200 + a.length);
    assert.equal(keysOf(joined, rate), '59');
  });

  test('single sine tones, same-group pairs and the redaction tone are not keys', () => {
    for (const rate of [8000, 16000]) {
      for (const f of [697, 770, 852, 941, 1209, 1336, 1477, 1633, 440, 1000, 2000]) {
        assert.equal(keysOf(sinePcm([f], rate, 1), rate), '', `${f} Hz at ${rate}`);
        assert.equal(keysOf(sinePcm([f], rate, 1, 30000), rate), '', `${f} Hz loud at ${rate}`);
      }
      assert.equal(keysOf(sinePcm([697, 770], rate, 1), rate), '', 'two rows');
      assert.equal(keysOf(sinePcm([1209, 1477], rate, 1), rate), '', 'two columns');
      // A pair under a third tone 3 dB louder than each of them: the pair no longer carries most of the energy.
      const third = sinePcm([1000], rate, 1, 11300);
      assert.equal(keysOf(sinePcm([697, 1209], rate, 1).map((v, i) => v + third[i]), rate), '', 'a key under a louder third tone');
      // The control: the same code finds a true pair.
      assert.equal(keysOf(sinePcm([697, 1209], rate, 1), rate), '1');
    }
  });

  test('interleaved channels: stride and offset read one channel', () => {
    const rate = 8000;
    const keys = keyPcm({ keys: '147*' }, rate);
    const tone = sinePcm([1000], rate, keys.length / rate);
    const stereo = new Int16Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      stereo[2 * i] = tone[i];
      stereo[2 * i + 1] = keys[i];
    }
    assert.equal(keysOf(stereo, rate, { stride: 2, offset: 0 }), '');
    const right = detectDtmf(stereo, rate, { stride: 2, offset: 1 });
    assert.deepEqual(right, detectDtmf(keys, rate));
    assert.equal(right.length, 4);
  });

  test('empty, tiny and silent input; a rate too low is refused', () => {
    assert.deepEqual(detectDtmf(new Int16Array(0), 8000), []);
    assert.deepEqual(detectDtmf(new Int16Array(50), 8000), []);
    assert.deepEqual(detectDtmf(new Int16Array(80000), 8000), []);
    assert.throws(() => detectDtmf(new Int16Array(100), 2000), RangeError);
  });
});

describe('DTMF detector on real audio', { skip: required(!hasTool('ffmpeg') && 'no ffmpeg') }, () => {
  let dir: string;
  before(() => (dir = tempDir('scrubline-dtmf-')));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('keys generated by ffmpeg (sine sums), through 8 kHz mu-law and A-law and back', () => {
    const seq = { keys: ALL, on: 0.06, off: 0.06 };
    for (const [name, codec] of [['mulaw', 'pcm_mulaw'], ['alaw', 'pcm_alaw']]) {
      const file = keyFile(seq, path.join(dir, `keys-${name}.wav`), 8000, ['-c:a', codec]);
      assertFinds(filePcm(file), 8000, seq);
      // The same call upsampled to 16 kHz (what a wideband pipeline sees).
      assertFinds(filePcm(file, 0, 16000), 16000, seq);
    }
    const wide = keyFile(seq, path.join(dir, 'keys-16k.wav'), 16000);
    assertFinds(filePcm(wide), 16000, seq);
  });

  test('festival speech (16 kHz, and 8 kHz mu-law) holds no keys', { skip: required(!hasFestivalVoice() && 'no festival voice') }, () => {
    const speech = speakFestival(
      'Thank you for calling. Please say or enter your card number now. My card number is four one one one, two two two two, three three three three. ' +
        'The expiry date is nine, twenty seven. Ooooh. Hmmm. Eeeee. Mmmmm. Aaaaah. La la la la. One moment while I transfer you to an agent, beep beep.',
      path.join(dir, 'speech.wav'),
    );
    const mulaw = path.join(dir, 'speech-mulaw.wav');
    ffmpeg(['-i', speech, '-ar', '8000', '-c:a', 'pcm_mulaw', mulaw]);
    const wide = filePcm(speech);
    assert.ok(wide.length > 16000 * 10, 'at least 10 s of speech');
    assert.deepEqual(detectDtmf(wide, 16000), []);
    assert.deepEqual(detectDtmf(filePcm(mulaw), 8000), []);
  });

  const recordings = [
    ...['audio/jfk.wav', 'audio/stereo/stereo_diarization.wav', ...Array.from({ length: 8 }, (_, i) => `audio/ljspeech/LJ001-000${i + 1}.flac`)].map((f) => devAudio(f) ?? ''),
    ...['/usr/share/pocketsphinx/test/data/librivox', '/usr/share/pocketsphinx/test/data/cards'].flatMap((d) =>
      fs.existsSync(d) ? fs.readdirSync(d).filter((f) => f.endsWith('.wav')).map((f) => path.join(d, f)) : [],
    ),
  ].filter((f) => fs.existsSync(f));
  test(`recorded speech holds no keys (${recordings.length} recordings at hand: dev set, PocketSphinx test data)`, { skip: required(recordings.length === 0 && 'no recordings') }, () => {
    let seconds = 0;
    for (const file of recordings) {
      for (const channel of file.includes('stereo') ? [0, 1] : [0]) {
        const native = filePcm(file, channel);
        const phone = filePcm(file, channel, 8000);
        seconds += phone.length / 8000;
        assert.deepEqual(detectDtmf(phone, 8000), [], `${file} channel ${channel} at 8 kHz`);
        const rate = Number(execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=sample_rate', '-of', 'csv=p=0', file], { encoding: 'utf8' }).trim());
        assert.deepEqual(detectDtmf(native, rate), [], `${file} channel ${channel} at ${rate} Hz`);
      }
    }
    assert.ok(seconds > 20, `${seconds} s of speech`);
  });
});
