// Audio in: every usual container, codec, rate and channel layout decodes to 16 kHz PCM per channel with the
// channels kept apart; broken input is refused with the right reason, never a crash or a hang. The test audio is
// made here with ffmpeg (a 440 Hz tone on the left channel, 1000 Hz on the right).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeChannels } from '../../src/audio/decode.js';
import { AudioError, type AudioErrorReason } from '../../src/audio/errors.js';
import { probeAudio } from '../../src/audio/probe.js';

const SECONDS = 2;
let dir: string;

function ffmpeg(...args: string[]): void {
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
}

/** Stereo source: 440 Hz left, 1000 Hz right, at `rate`. */
function tones(rate: number, seconds = SECONDS): string[] {
  return [
    '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${rate}:duration=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=1000:sample_rate=${rate}:duration=${seconds}`,
    '-filter_complex', '[0:a][1:a]join=inputs=2:channel_layout=stereo[a]', '-map', '[a]',
  ];
}

function make(name: string, args: string[]): string {
  const file = path.join(dir, name);
  ffmpeg(...args, file);
  return file;
}

/** Dominant frequency by zero crossings (good enough for a pure tone). */
function toneHz(samples: Int16Array, rate: number): number {
  const from = Math.floor(rate * 0.2); // past codec start-up
  const to = Math.min(samples.length, Math.floor(rate * (SECONDS - 0.2)));
  let crossings = 0;
  for (let i = from + 1; i < to; i++) if ((samples[i - 1] < 0) !== (samples[i] < 0)) crossings++;
  return crossings / 2 / ((to - from) / rate);
}

async function refused(promise: Promise<unknown>, reason: AudioErrorReason): Promise<AudioError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AudioError, `expected an AudioError, got ${(error as Error).stack}`);
    assert.equal(error.reason, reason, error.message);
    assert.ok(error.message.length > 10, 'a clear message');
    return error;
  }
  assert.fail(`expected AudioError ${reason}`);
}

function truncate(file: string, keep: number): string {
  const out = path.join(dir, `cut-${path.basename(file)}`);
  fs.writeFileSync(out, fs.readFileSync(file).subarray(0, keep));
  return out;
}

describe('audio decoding', () => {
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-decode-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const formats: { name: string; args: (src: string[]) => string[]; rate: number; codec: RegExp; channels?: number; tolerance?: number }[] = [
    { name: 'pcm16k.wav', args: () => [...tones(16000), '-c:a', 'pcm_s16le'], rate: 16000, codec: /pcm_s16le/ },
    { name: 'mulaw8k.wav', args: () => [...tones(8000), '-c:a', 'pcm_mulaw'], rate: 8000, codec: /pcm_mulaw/ },
    { name: 'alaw8k.wav', args: () => [...tones(8000), '-c:a', 'pcm_alaw'], rate: 8000, codec: /pcm_alaw/ },
    { name: 'pcm22k.wav', args: () => [...tones(22050), '-c:a', 'pcm_s16le'], rate: 22050, codec: /pcm_s16le/ },
    { name: 'pcm44k.wav', args: () => [...tones(44100), '-c:a', 'pcm_s16le'], rate: 44100, codec: /pcm_s16le/ },
    { name: 'pcm48k.wav', args: () => [...tones(48000), '-c:a', 'pcm_s24le'], rate: 48000, codec: /pcm_s24le/ },
    { name: 'mono8k.wav', args: () => [...tones(8000), '-ac', '1', '-c:a', 'pcm_mulaw'], rate: 8000, codec: /pcm_mulaw/, channels: 1 },
    { name: 'tones.mp3', args: () => [...tones(44100), '-c:a', 'libmp3lame', '-b:a', '128k'], rate: 44100, codec: /mp3/, tolerance: 0.1 },
    { name: 'tones.flac', args: () => [...tones(48000), '-c:a', 'flac'], rate: 48000, codec: /flac/ },
    { name: 'tones.opus', args: () => [...tones(48000), '-c:a', 'libopus', '-b:a', '64k', '-f', 'ogg'], rate: 48000, codec: /opus/, tolerance: 0.1 },
    { name: 'tones.m4a', args: () => [...tones(44100), '-c:a', 'aac', '-b:a', '96k'], rate: 44100, codec: /aac/, tolerance: 0.1 },
  ];

  for (const f of formats) {
    test(`${f.name}: ${f.channels ?? 2} channel(s) at 16 kHz, channels kept apart`, async () => {
      const file = make(f.name, f.args([]));
      const probe = await probeAudio(file);
      assert.match(probe.codec, f.codec);
      assert.equal(probe.sampleRate, f.rate);
      assert.equal(probe.channels, f.channels ?? 2);
      assert.ok(Math.abs(probe.durationSeconds - SECONDS) < 0.1, `declared ${probe.durationSeconds}`);

      const audio = await decodeChannels(file, { sampleRate: 16000 });
      assert.equal(audio.sampleRate, 16000);
      assert.equal(audio.channels.length, f.channels ?? 2);
      assert.ok(Math.abs(audio.durationSeconds - SECONDS) <= (f.tolerance ?? 0.02), `decoded ${audio.durationSeconds} s`);
      for (const ch of audio.channels) assert.equal(ch.length, audio.channels[0].length);
      if ((f.channels ?? 2) === 2) {
        const left = toneHz(audio.channels[0], 16000);
        const right = toneHz(audio.channels[1], 16000);
        assert.ok(Math.abs(left - 440) < 15, `left channel is the 440 Hz tone (${left.toFixed(0)} Hz)`);
        assert.ok(Math.abs(right - 1000) < 30, `right channel is the 1000 Hz tone (${right.toFixed(0)} Hz)`);
      } else {
        // A mono mix of both tones: not silent.
        assert.ok(audio.channels[0].some((s) => Math.abs(s) > 1000));
      }
    });
  }

  test('8 kHz keeps its rate when asked for it', async () => {
    const file = make('keep8k.wav', [...tones(8000), '-c:a', 'pcm_mulaw']);
    const audio = await decodeChannels(file, { sampleRate: 8000 });
    assert.equal(audio.channels[0].length, 8000 * SECONDS);
  });

  test('an empty file is refused as empty', async () => {
    const file = path.join(dir, 'empty.wav');
    fs.writeFileSync(file, '');
    await refused(probeAudio(file), 'empty');
    await refused(decodeChannels(file), 'empty');
  });

  test('a WAV with no samples is refused as empty', async () => {
    const file = make('zero.wav', ['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '0', '-c:a', 'pcm_s16le']);
    await refused(decodeChannels(file), 'empty');
  });

  test('a text file named .wav is refused as not audio', async () => {
    const file = path.join(dir, 'notes.wav');
    fs.writeFileSync(file, 'These are meeting notes, not a recording.\n'.repeat(20));
    const error = await refused(decodeChannels(file), 'not_audio');
    assert.ok(!error.message.includes(dir), 'the message does not leak the stored path');
    const random = path.join(dir, 'noise.mp3');
    fs.writeFileSync(random, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
    await refused(decodeChannels(random), 'not_audio');
  });

  test('truncated files are refused as truncated', async () => {
    const wav = make('whole.wav', [...tones(16000), '-c:a', 'pcm_s16le']);
    await refused(decodeChannels(truncate(wav, Math.floor(fs.statSync(wav).size / 2))), 'truncated');
    const headerOnly = truncate(wav, 40);
    await refused(decodeChannels(headerOnly), 'truncated');
    const flac = make('whole.flac', [...tones(16000, 6), '-c:a', 'flac']);
    await refused(decodeChannels(truncate(flac, Math.floor(fs.statSync(flac).size / 2))), 'truncated');
    const mp3 = make('whole.mp3', [...tones(16000, 6), '-c:a', 'libmp3lame']);
    await refused(decodeChannels(truncate(mp3, Math.floor(fs.statSync(mp3).size / 2))), 'truncated');
    const m4a = make('whole.m4a', [...tones(16000, 6), '-c:a', 'aac']); // index (moov) at the end
    await refused(decodeChannels(truncate(m4a, Math.floor(fs.statSync(m4a).size / 2))), 'truncated');
    // An MP3 without a frame count has only an estimated duration, which may be off: not taken for truncated.
    const vbr = make('vbr.mp3', [...tones(16000, 6), '-c:a', 'libmp3lame', '-q:a', '2', '-write_xing', '0']);
    assert.equal((await probeAudio(vbr)).durationEstimated, true);
    assert.ok(Math.abs((await decodeChannels(vbr)).durationSeconds - 6) < 0.1);
    // ...and a truncated file decodes when asked to take what there is.
    const half = await decodeChannels(truncate(flac, Math.floor(fs.statSync(flac).size / 2)), { acceptTruncated: true });
    assert.ok(half.durationSeconds > 1 && half.durationSeconds < 5);
  });

  test('a video without sound is refused as having no audio stream', async () => {
    const file = make('silent-video.mkv', ['-f', 'lavfi', '-i', 'testsrc=duration=1:size=64x64:rate=5', '-c:v', 'ffv1']);
    await refused(decodeChannels(file), 'no_audio_stream');
  });

  test('audio over the duration limit is refused as too long, before decoding', async () => {
    const file = make('long.flac', [...tones(16000, 5), '-c:a', 'flac']);
    const error = await refused(decodeChannels(file, { maxSeconds: 3 }), 'too_long');
    assert.equal(error.kind, 'too_large');
    await refused(probeAudio(file, { maxSeconds: 3 }), 'too_long');
    // A stream that declares no duration is stopped while decoding.
    const raw = make('long.mka', [...tones(16000, 5), '-c:a', 'pcm_s16le', '-f', 'matroska', '-live', '1']);
    await refused(decodeChannels(raw, { maxSeconds: 3, probe: { ...(await probeAudio(raw)), durationSeconds: 0 } }), 'too_long');
  });

  test("a file's description is remembered: ffprobe runs once per file, again once the file changes", async () => {
    const file = make('remembered.flac', [...tones(16000, 2), '-c:a', 'flac']);
    // An ffprobe that counts its runs, then runs the real one.
    const counter = path.join(dir, 'ffprobe-runs.txt');
    const wrapper = path.join(dir, 'counting-ffprobe.sh');
    fs.writeFileSync(wrapper, `#!/bin/sh\necho run >> ${counter}\nexec ffprobe "$@"\n`, { mode: 0o755 });
    const runs = () => (fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8').split('\n').filter(Boolean).length : 0);
    process.env.SCRUBLINE_FFPROBE = wrapper;
    try {
      const first = await probeAudio(file);
      const again = await probeAudio(file);
      assert.equal(runs(), 1, 'the second probe of the same file ran no ffprobe');
      assert.deepEqual(again, first);
      again.durationSeconds = 0;
      assert.equal((await probeAudio(file)).durationSeconds, first.durationSeconds, "a caller's change to its answer is its own");
      // The limit applies to a remembered description too.
      await refused(probeAudio(file, { maxSeconds: 1 }), 'too_long');
      // The file rewritten (new content, new modification time): described anew.
      execFileSync('ffmpeg', ['-v', 'error', '-y', ...tones(16000, 3), '-c:a', 'flac', path.join(dir, 'rewritten.flac')]);
      fs.copyFileSync(path.join(dir, 'rewritten.flac'), file);
      const changed = await probeAudio(file);
      assert.equal(runs(), 2);
      assert.ok(changed.durationSeconds > first.durationSeconds, `${changed.durationSeconds} after ${first.durationSeconds}`);
    } finally {
      delete process.env.SCRUBLINE_FFPROBE;
    }
  });

  test('a missing ffmpeg and a stuck ffmpeg give clear errors', async () => {
    const file = make('ok.flac', [...tones(16000), '-c:a', 'flac']);
    process.env.SCRUBLINE_FFPROBE = '/nonexistent/ffprobe';
    try {
      const error = await refused(probeAudio(file), 'ffmpeg_missing');
      assert.equal(error.kind, 'unavailable');
    } finally {
      delete process.env.SCRUBLINE_FFPROBE;
    }
    await refused(probeAudio(file, { timeoutMs: 1 }), 'timeout');
  });

  /** What ffprobe says of a file and what ffmpeg decodes it to (16-bit, per channel), as probe/decode did before. */
  function ffprobeOf(file: string) {
    const out = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], { encoding: 'utf8' }));
    const s = out.streams[0];
    return { codec: s.codec_name, sampleRate: Number(s.sample_rate), channels: s.channels, durationSeconds: Number(out.format.duration) };
  }
  function ffmpegSamples(file: string, rate: number, nch: number): Int16Array[] {
    const raw = execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', file, '-ac', String(nch), '-ar', String(rate), '-acodec', 'pcm_s16le', '-f', 's16le', 'pipe:1'], { maxBuffer: 1 << 28 });
    const all = new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2);
    return Array.from({ length: nch }, (_, c) => all.filter((_, i) => i % nch === c));
  }

  const direct: { name: string; args: string[]; rate: number; channels: number }[] = [
    { name: 'direct-s16-16k.wav', args: [...tones(16000, 3), '-c:a', 'pcm_s16le'], rate: 16000, channels: 2 },
    { name: 'direct-mulaw-16k.wav', args: [...tones(16000, 3), '-c:a', 'pcm_mulaw'], rate: 16000, channels: 2 },
    { name: 'direct-alaw-16k.wav', args: [...tones(16000, 3), '-ac', '1', '-c:a', 'pcm_alaw'], rate: 16000, channels: 1 },
    { name: 'direct-u8-16k.wav', args: [...tones(16000, 3), '-c:a', 'pcm_u8'], rate: 16000, channels: 2 },
    { name: 'direct-mulaw-8k.wav', args: [...tones(8000, 3), '-ac', '1', '-c:a', 'pcm_mulaw'], rate: 8000, channels: 1 },
  ];

  test('a PCM, G.711 or 8-bit WAV is described from its header as ffprobe describes it, and read without ffmpeg to the samples ffmpeg gives', async () => {
    for (const f of direct) {
      const file = make(f.name, f.args);
      const probe = await probeAudio(file);
      const expected = ffprobeOf(file);
      assert.equal(probe.codec, expected.codec, f.name);
      assert.equal(probe.container, 'wav');
      assert.equal(probe.sampleRate, expected.sampleRate, f.name);
      assert.equal(probe.channels, expected.channels, f.name);
      assert.ok(Math.abs(probe.durationSeconds - expected.durationSeconds) < 0.001, `${f.name}: ${probe.durationSeconds} s against ffprobe's ${expected.durationSeconds}`);
      const audio = await decodeChannels(file, { sampleRate: f.rate });
      const reference = ffmpegSamples(file, f.rate, f.channels);
      assert.equal(audio.channels.length, f.channels);
      for (let c = 0; c < f.channels; c++) assert.deepEqual(audio.channels[c], reference[c], `${f.name} channel ${c}: the same samples as ffmpeg's`);
      assert.equal(audio.durationSeconds, reference[0].length / f.rate);
    }
  });

  test('without ffprobe and ffmpeg installed, such a WAV still probes and decodes; one that needs resampling or another codec does not', async () => {
    const wav16 = path.join(dir, 'direct-s16-16k.wav');
    const mulaw8 = path.join(dir, 'direct-mulaw-8k.wav');
    if (!fs.existsSync(wav16)) for (const f of direct) make(f.name, f.args);
    const flac = make('needs-ffmpeg.flac', [...tones(16000), '-c:a', 'flac']);
    process.env.SCRUBLINE_FFPROBE = '/nonexistent/ffprobe';
    process.env.SCRUBLINE_FFMPEG = '/nonexistent/ffmpeg';
    try {
      assert.equal((await decodeChannels(wav16)).channels.length, 2);
      assert.equal((await probeAudio(mulaw8)).codec, 'pcm_mulaw');
      assert.equal((await decodeChannels(mulaw8, { sampleRate: 8000 })).channels[0].length, 8000 * 3);
      await refused(decodeChannels(mulaw8, { sampleRate: 16000 }), 'ffmpeg_missing');
      await refused(decodeChannels(flac), 'ffmpeg_missing');
    } finally {
      delete process.env.SCRUBLINE_FFPROBE;
      delete process.env.SCRUBLINE_FFMPEG;
    }
  });

  test('errors are permanent for the job worker, except a timeout', () => {
    assert.equal(new AudioError('not_audio', 'x').permanent, true);
    assert.equal(new AudioError('timeout', 'x').permanent, false);
  });
});
