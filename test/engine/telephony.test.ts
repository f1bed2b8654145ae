// The telephone-band adaptation (scripts/build-telephony-model.sh, the en-us:telephony model):
//   - the transform builds, and a second run reuses it from the cache;
//   - the 8 kHz dev files transcribe clearly better with it than without (a loose bound);
//   - the automatic choice takes en-us:telephony for 8 kHz (and upsampled-telephone) audio, en-us:wideband for 16 kHz;
//   - a broken build (sphinxtrain missing) leaves the wideband model working, with the reason at /asr/status.
// Skips what needs the Debian packages (sphinxtrain, festival, festvox-us-slt-hts) or the dev data when absent.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeChannels } from '../../src/audio/decode.js';
import { chooseModelForAudio } from '../../src/engine/bandwidth.js';
import { installedModels, listModels, TELEPHONY_MODEL, telephonyDir, WIDEBAND_MODEL } from '../../src/engine/models.js';
import { closeSharedPool } from '../../src/engine/pool.js';
import { recognizeFile } from '../../src/engine/recognize.js';
import { evaluateTelephony } from '../../eval/telephony.js';
import { devDataSkip, loadReferences } from '../helpers/devData.js';
import { json, startTestService } from '../helpers/harness.js';
import { required } from '../helpers/require.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'build-telephony-model.sh');

// Measured (eval/telephony.ts): 8 kHz mu-law dev files 41.1% WER wideband, 24.6% adapted. Loose bounds.
const MAX_ADAPTED_8K_WER = 0.33;
const MIN_GAIN = 0.08;

function packagesMissing(): string | false {
  const need = ['/usr/lib/sphinxtrain/bw', '/usr/lib/sphinxtrain/mllr_solve', '/usr/bin/festival', '/usr/bin/sphinx_fe', '/usr/bin/pocketsphinx_mdef_convert', '/usr/share/festival/voices/us/cmu_us_slt_arctic_hts'];
  const missing = need.filter((f) => !fs.existsSync(f));
  return missing.length > 0 ? `adaptation packages missing (${missing.join(', ')}): apt-get install sphinxtrain sphinxbase-utils pocketsphinx festival festvox-us-slt-hts` : false;
}

const wideband = installedModels().some((m) => m.name === WIDEBAND_MODEL);
const noPackages = !wideband ? `${WIDEBAND_MODEL} is not installed` : packagesMissing();

function build(env: Record<string, string> = {}) {
  // The bound is only a backstop against a hung build (a real build takes about 30-60 s on 2 idle cores).
  const r = spawnSync('bash', [SCRIPT], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 1_800_000 });
  return { status: r.status, stderr: r.stderr };
}

after(async () => {
  await closeSharedPool();
});

describe('telephone-band adaptation build', { skip: required(noPackages) }, () => {
  test('the transform builds from nothing, and a second run reuses it from the cache', () => {
    // A fresh models directory: nothing cached, so this is a real build (about 30-60 s on 2 cores).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-tel-build-'));
    try {
      const dest = path.join(dir, 'telephony', 'en-us');
      const first = build({ SCRUBLINE_MODELS_DIR: dir });
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stderr, /built the telephone-band adaptation/);
      const transform = path.join(dest, 'mllr_matrix');
      const manifest = JSON.parse(fs.readFileSync(path.join(dest, 'manifest.json'), 'utf8'));
      assert.equal(manifest.state, 'built');
      assert.match(manifest.inputsHash, /^[0-9a-f]{16}$/);
      assert.ok(manifest.utterances >= 300, `${manifest.utterances} adaptation utterances`);
      assert.ok(fs.statSync(transform).size > 1000, 'a transform of a few KB');
      assert.ok(fs.existsSync(path.join(dest, 'build.log')), 'the build is logged');
      const mtime = fs.statSync(transform).mtimeMs;

      const second = build({ SCRUBLINE_MODELS_DIR: dir });
      assert.equal(second.status, 0, second.stderr);
      assert.match(second.stderr, /up to date/);
      assert.equal(fs.statSync(transform).mtimeMs, mtime, 'the cached transform is not rewritten');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the installed models directory has the transform, and the registry serves en-us:telephony with it', () => {
    const r = build();
    assert.equal(r.status, 0, r.stderr);
    const model = listModels().find((m) => m.name === TELEPHONY_MODEL);
    assert.equal(model?.installed, true, model?.reason);
    assert.equal(model?.files?.mllr, path.join(telephonyDir(), 'mllr_matrix'));
    assert.equal(model?.adaptation?.state, 'built');
  });
});

describe('a broken adaptation build', { skip: required(!wideband && `${WIDEBAND_MODEL} is not installed`) }, () => {
  let dir: string;
  let saved: string | undefined;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-tel-broken-'));
    saved = process.env.SCRUBLINE_MODELS_DIR;
  });
  after(() => {
    if (saved === undefined) delete process.env.SCRUBLINE_MODELS_DIR;
    else process.env.SCRUBLINE_MODELS_DIR = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('sphinxtrain missing: the script exits 0, the wideband model works, /asr/status gives the reason', async (t) => {
    const r = build({ SCRUBLINE_MODELS_DIR: dir, SCRUBLINE_SPHINXTRAIN_BIN: path.join(dir, 'nowhere') });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /not built: .*bw not found/);
    const unavailable = JSON.parse(fs.readFileSync(path.join(dir, 'telephony', 'en-us', 'unavailable.json'), 'utf8'));
    assert.match(unavailable.reason, /sphinxtrain/);

    process.env.SCRUBLINE_MODELS_DIR = dir;
    const models = listModels();
    assert.equal(models.find((m) => m.name === WIDEBAND_MODEL)?.installed, true);
    const telephony = models.find((m) => m.name === TELEPHONY_MODEL);
    assert.equal(telephony?.installed, false);
    assert.match(telephony?.reason ?? '', /sphinxtrain/);

    const svc = await startTestService('sqlite', { workers: false });
    try {
      const status = json(await svc.request({ method: 'GET', url: '/asr/status' }));
      assert.equal(status.engine.ready, true);
      assert.deepEqual(status.engine.models, [WIDEBAND_MODEL]);
      assert.equal(status.engine.adaptation.available, false);
      assert.equal(status.engine.adaptation.state, 'unavailable');
      assert.match(status.engine.adaptation.reason, /sphinxtrain/);
      const listed = json(await svc.request({ method: 'GET', url: '/asr/models' }));
      assert.equal(listed.models.find((m: { name: string }) => m.name === TELEPHONY_MODEL)?.installed, false);
    } finally {
      await svc.close();
    }

    // 8 kHz audio with 'auto' still transcribes, on the wideband model.
    const tone = path.join(dir, 'speech-8k.wav');
    const src = loadReferences()?.[0]?.path; // loadReferences throws where the dev data is required
    if (!src) return void t.skip('no dev data: the 8 kHz transcription was not checked');
    execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', src, '-ar', '8000', '-c:a', 'pcm_mulaw', tone]);
    const transcript = await recognizeFile(tone, { model: 'auto' });
    assert.equal(transcript.model, WIDEBAND_MODEL);
    assert.ok(transcript.channels[0].words.length > 0);
  });
});

describe('automatic model choice', { skip: required(noPackages || devDataSkip()) }, () => {
  let dir: string;
  const refs = loadReferences() ?? [];
  before(() => {
    assert.equal(build().status, 0);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-tel-auto-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('8 kHz input (and 8 kHz audio delivered at 16 kHz) → en-us:telephony; 16 kHz speech → en-us:wideband', async () => {
    const src = refs.find((r) => r.audio.includes('LJ001-0001'))?.path ?? refs[0].path;
    const narrow = path.join(dir, 'narrow-8k.wav');
    const upsampled = path.join(dir, 'narrow-16k.wav');
    execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', src, '-ar', '8000', '-c:a', 'pcm_mulaw', narrow]);
    execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', narrow, '-ar', '16000', '-c:a', 'pcm_s16le', upsampled]);

    assert.equal((await recognizeFile(narrow)).model, TELEPHONY_MODEL, '8 kHz input');
    assert.equal((await recognizeFile(src)).model, WIDEBAND_MODEL, 'wideband original');
    const up = await decodeChannels(upsampled, { sampleRate: 16000 });
    const choice = chooseModelForAudio('auto', 16000, up.channels, 16000);
    assert.equal(choice.model, TELEPHONY_MODEL, choice.reason);
    assert.match(choice.reason, /4 kHz/);
    // An explicit model is kept.
    assert.equal((await recognizeFile(narrow, { model: WIDEBAND_MODEL })).model, WIDEBAND_MODEL);
  });

  test('telephone audio re-encoded at a higher rate, with codec or line noise above 4 kHz → en-us:telephony', async () => {
    // Each dev file through a telephone path (300-3400 Hz, 8 kHz mu-law), then: a 48 kHz Opus file; a 16 kHz WAV
    // with white noise above 4 kHz at -54 dBFS (high-band share 1e-5..3e-4, about -45 dB relative: the strict
    // ratio alone took these for wideband); and that WAV as 48 kHz Opus.
    for (const file of [...new Set(refs.map((r) => r.path))]) {
      const name = path.basename(file).replace(/\..*$/, '');
      const line = path.join(dir, `${name}-line.wav`);
      execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', file, '-af', 'highpass=f=300,lowpass=f=3400', '-ac', '1', '-ar', '8000', '-c:a', 'pcm_mulaw', line]);
      const opus = path.join(dir, `${name}-48k.opus`);
      execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', line, '-ar', '48000', '-c:a', 'libopus', '-b:a', '24k', opus]);
      const noisy = path.join(dir, `${name}-noisy-16k.wav`);
      execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', line, '-f', 'lavfi', '-i', 'anoisesrc=color=white:sample_rate=16000:amplitude=1:seed=7',
        '-filter_complex', '[0:a]aresample=16000[s];[1:a]highpass=f=4000,highpass=f=4000,volume=-54dB[n];[s][n]amix=inputs=2:duration=first:normalize=0', '-ar', '16000', '-c:a', 'pcm_s16le', noisy]);
      const noisyOpus = path.join(dir, `${name}-noisy-48k.opus`);
      execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', noisy, '-ar', '48000', '-c:a', 'libopus', '-b:a', '32k', noisyOpus]);
      for (const [variant, rate] of [[opus, 48000], [noisy, 16000], [noisyOpus, 48000]] as const) {
        const audio = await decodeChannels(variant, { sampleRate: 16000 });
        const choice = chooseModelForAudio('auto', rate, audio.channels, 16000);
        assert.equal(choice.model, TELEPHONY_MODEL, `${path.basename(variant)}: ${choice.reason}`);
      }
    }
    // Through the whole path: the recording's own rate is 48 kHz.
    const opus = path.join(dir, `${path.basename(refs[0].path).replace(/\..*$/, '')}-noisy-48k.opus`);
    assert.equal((await recognizeFile(opus)).model, TELEPHONY_MODEL, '48 kHz Opus telephone call');
  });

  test('a two-party telephone call with line noise (-45 dBFS) as 48 kHz Opus → en-us:telephony; read speech low-passed at 3.8 kHz → en-us:wideband', async () => {
    // Issue 31: the noise floor made the fall at 4 kHz only 11-14 dB, under the 15 dB the shape rule asked for.
    const [a, b] = [refs.find((r) => r.audio.includes('LJ001-0001'))?.path ?? refs[0].path, refs.find((r) => r.audio.includes('LJ001-0002'))?.path ?? refs[0].path];
    const line = path.join(dir, 'two-party-line.wav');
    execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', a, '-i', b, '-filter_complex',
      '[0:a]highpass=f=300,lowpass=f=3400,aresample=8000[l];[1:a]highpass=f=300,lowpass=f=3400,aresample=8000,apad[r];[l][r]join=inputs=2:channel_layout=stereo[a]',
      '-map', '[a]', '-c:a', 'pcm_mulaw', line]);
    const opus = path.join(dir, 'two-party-noisy-48k.opus');
    execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', line, '-f', 'lavfi', '-i', 'anoisesrc=color=white:amplitude=0.01:sample_rate=48000:seed=7', '-filter_complex',
      '[0:a]aresample=48000[s];[1:a]aformat=channel_layouts=stereo[n];[s][n]amix=inputs=2:duration=first:normalize=0[a]', '-map', '[a]', '-c:a', 'libopus', '-b:a', '32k', opus]);
    const call = await decodeChannels(opus, { sampleRate: 16000 });
    const choice = chooseModelForAudio('auto', 48000, call.channels, 16000);
    assert.equal(choice.model, TELEPHONY_MODEL, choice.reason);
    // Wideband read speech with little energy above 4 kHz keeps sloping there: not a telephone call.
    const dull = path.join(dir, 'dull-16k.wav');
    execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', a, '-af', 'lowpass=f=3800,lowpass=f=3800', '-ar', '16000', '-c:a', 'pcm_s16le', dull]);
    const read = await decodeChannels(dull, { sampleRate: 16000 });
    const kept = chooseModelForAudio('auto', 16000, read.channels, 16000);
    assert.equal(kept.model, WIDEBAND_MODEL, kept.reason);
  });

  test('every 16 kHz dev file stays on the wideband model', async () => {
    for (const file of [...new Set(refs.map((r) => r.path))]) {
      const audio = await decodeChannels(file, { sampleRate: 16000 });
      const choice = chooseModelForAudio(undefined, 16000, audio.channels, 16000);
      assert.equal(choice.model, WIDEBAND_MODEL, `${path.basename(file)}: ${choice.reason}`);
    }
  });
});

describe('telephone-band accuracy on the dev files', { skip: required(noPackages || devDataSkip()) }, () => {
  test('8 kHz mu-law dev files: clearly better with the adaptation than without', async () => {
    assert.equal(build().status, 0);
    const refs = loadReferences()!;
    const cells = await evaluateTelephony(refs, { variants: ['8k-mulaw'], models: [WIDEBAND_MODEL, TELEPHONY_MODEL] });
    const plain = cells.find((c) => c.model === WIDEBAND_MODEL)!;
    const adapted = cells.find((c) => c.model === TELEPHONY_MODEL)!;
    assert.ok(adapted, 'the telephony model was evaluated');
    assert.ok(adapted.wer <= MAX_ADAPTED_8K_WER, `adapted 8 kHz WER ${(adapted.wer * 100).toFixed(1)}% <= ${MAX_ADAPTED_8K_WER * 100}%`);
    assert.ok(
      plain.wer - adapted.wer >= MIN_GAIN,
      `adaptation gains ${((plain.wer - adapted.wer) * 100).toFixed(1)} points (${(plain.wer * 100).toFixed(1)}% → ${(adapted.wer * 100).toFixed(1)}%)`,
    );
  });
});

describe('jobs and the model list', { skip: required(noPackages || devDataSkip()) }, () => {
  test('/asr/models lists the models, a job with no model records the one chosen, model=en-us:telephony is honoured, an unknown model is a 400', async () => {
    assert.equal(build().status, 0);
    const { multipart } = await import('../helpers/multipart.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-tel-jobs-'));
    const svc = await startTestService('sqlite');
    try {
      const src = loadReferences()!.find((r) => r.audio.includes('LJ001-0005'))!.path;
      const narrow = path.join(dir, 'call-8k.wav');
      execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', src, '-ar', '8000', '-c:a', 'pcm_mulaw', narrow]);
      const submit = (file: string, fields: Record<string, string> = {}) =>
        svc.request({ method: 'POST', url: '/asr/transcribe?wait=300', ...multipart(fields, [{ name: 'audio', filename: path.basename(file), content: fs.readFileSync(file) }]) });

      const listed = json(await svc.request({ method: 'GET', url: '/asr/models' }));
      assert.equal(listed.default, 'en-us:auto');
      const names = listed.models.filter((m: { installed: boolean }) => m.installed).map((m: { name: string }) => m.name);
      assert.deepEqual(names, [WIDEBAND_MODEL, TELEPHONY_MODEL, 'en-us:auto']);
      assert.equal(json(await svc.request({ method: 'GET', url: '/asr/params' })).params.model, 'en-us:auto');
      const status = json(await svc.request({ method: 'GET', url: '/asr/status' }));
      assert.equal(status.engine.adaptation.available, true);
      assert.equal(status.engine.adaptation.state, 'built');

      const auto8k = json(await submit(narrow));
      assert.equal(auto8k.status, 'completed', auto8k.message);
      assert.equal(auto8k.model, TELEPHONY_MODEL, '8 kHz audio with no model → en-us:telephony');
      const auto16k = json(await submit(src));
      assert.equal(auto16k.model, WIDEBAND_MODEL, '16 kHz audio with no model → en-us:wideband');
      const forced = json(await submit(src, { model: TELEPHONY_MODEL }));
      assert.equal(forced.model, TELEPHONY_MODEL, 'an explicit model is used');

      const unknown = await submit(src, { model: 'en-us:nope' });
      assert.equal(unknown.statusCode, 400);
      assert.match(unknown.body, /en-us:wideband/);
      assert.match(unknown.body, /en-us:telephony/);
    } finally {
      await svc.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
