// The sherpa-onnx engine on a real (tiny, generated) NeMo-CTC model: folders are recognized or refused by name of
// what is wrong, a model is loaded in a child process before it is registered, and recognition runs through
// sherpa-onnx and ONNX Runtime on the worker pool with word times from the model's tokens — the words can only
// come from this model ("hellos" is not English; PocketSphinx cannot say it).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { listModels } from '../../src/engine/models.js';
import { closeSharedPool, defaultPoolSize } from '../../src/engine/pool.js';
import { recognizeFile, sherpaEngine } from '../../src/engine/recognize.js';
import { checkAddedModels } from '../../src/engine/sherpa/checkAtStart.js';
import { addModel, ModelAdminError, removeModel } from '../../src/engine/sherpa/manage.js';
import { inspectModelFolder, ModelFolderError } from '../../src/engine/sherpa/modelFolder.js';
import { readOnnxMetadata } from '../../src/engine/sherpa/onnxMetadata.js';
import { addedModelsDir, defaultModelName, parseModelName } from '../../src/engine/sherpa/registry.js';
import { wordsFromTokens } from '../../src/engine/sherpa/words.js';
import { ffmpeg, hasTool, stereo, tempDir } from '../helpers/audio.js';
import { writeTinyNemoCtcModel, writeTinyTransducerModel, writeToneSequence } from '../helpers/tinyOnnxModel.js';
import { required } from '../helpers/require.js';

function refusal(dir: string): string {
  try {
    inspectModelFolder(dir);
  } catch (error) {
    assert.ok(error instanceof ModelFolderError, String(error));
    return error.message;
  }
  assert.fail(`${dir} was accepted`);
}

describe('model folders', () => {
  let dir: string;
  before(() => (dir = tempDir('scrubline-folders-')));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the generated model is a NeMo CTC model with token times; its metadata is read without loading it', () => {
    const model = writeTinyNemoCtcModel(path.join(dir, 'ok'));
    const spec = inspectModelFolder(model);
    assert.equal(spec.family, 'nemo-ctc');
    assert.equal(spec.files.model, path.join(model, 'model.onnx'));
    assert.equal(spec.files.tokens, path.join(model, 'tokens.txt'));
    assert.equal(spec.tokenTimestamps, true);
    const meta = readOnnxMetadata(spec.files.model!);
    assert.equal(meta.props.model_type, 'EncDecCTCModelBPE');
    assert.equal(meta.opsetVersion, 13);
  });

  test('each broken folder is refused naming what is wrong', () => {
    const noTokens = writeTinyNemoCtcModel(path.join(dir, 'no-tokens'));
    fs.rmSync(path.join(noTokens, 'tokens.txt'));
    assert.match(refusal(noTokens), /missing tokens\.txt/);

    assert.match(refusal(writeTinyNemoCtcModel(path.join(dir, 'no-blank'), { noBlank: true })), /no blank symbol/);
    assert.match(refusal(writeTinyNemoCtcModel(path.join(dir, 'no-meta'), { metadata: { author: 'me' } })), /no metadata that names a supported single-file model.*author/);
    assert.match(refusal(writeTinyNemoCtcModel(path.join(dir, 'half-meta'), { metadata: { model_type: 'EncDecCTCModelBPE' } })), /lacks vocab_size.*lacks subsampling_factor/);

    const notOnnx = writeTinyNemoCtcModel(path.join(dir, 'not-onnx'));
    fs.writeFileSync(path.join(notOnnx, 'model.onnx'), 'this is not a model\n');
    assert.match(refusal(notOnnx), /model\.onnx: is not an ONNX model/);

    const badTokens = writeTinyNemoCtcModel(path.join(dir, 'bad-tokens'));
    fs.writeFileSync(path.join(badTokens, 'tokens.txt'), '<blk> 0\nhello\n');
    assert.match(refusal(badTokens), /tokens\.txt line 2 is not "<symbol> <id>"/);

    fs.mkdirSync(path.join(dir, 'empty'));
    assert.match(refusal(path.join(dir, 'empty')), /no \.onnx file/);
    assert.match(refusal(path.join(dir, 'nowhere')), /cannot be read \(ENOENT\)/);
  });

  test('families are told apart by their files; parts missing or doubled are named', () => {
    const onnx = path.join(writeTinyNemoCtcModel(path.join(dir, 'source')), 'model.onnx');
    const folder = (name: string, files: string[]) => {
      const d = path.join(dir, name);
      fs.mkdirSync(d);
      for (const f of files) fs.copyFileSync(f.endsWith('.onnx') ? onnx : path.join(dir, 'source', 'tokens.txt'), path.join(d, f));
      return d;
    };
    const whisper = inspectModelFolder(folder('whisper', ['tiny.en-encoder.int8.onnx', 'tiny.en-decoder.int8.onnx', 'tiny.en-encoder.onnx', 'tiny.en-decoder.onnx', 'tiny.en-tokens.txt']));
    assert.equal(whisper.family, 'whisper');
    assert.equal(whisper.tokenTimestamps, false, 'Whisper gives no token times: its words are aligned');
    assert.match(whisper.files.encoder!, /tiny\.en-encoder\.int8\.onnx$/, 'int8 preferred');
    const transducer = inspectModelFolder(writeTinyTransducerModel(path.join(dir, 'zipformer')));
    assert.equal(transducer.family, 'transducer');
    assert.match(transducer.files.joiner!, /joiner-epoch-1-avg-1\.onnx$/);
    const untyped = writeTinyTransducerModel(path.join(dir, 'zipformer-no-type'));
    fs.copyFileSync(path.join(writeTinyNemoCtcModel(path.join(dir, 'bare'), { metadata: {} }), 'model.onnx'), path.join(untyped, 'encoder-epoch-1-avg-1.onnx'));
    assert.match(refusal(untyped), /encoder-epoch-1-avg-1\.onnx has no model_type metadata/);
    const moonshine = inspectModelFolder(folder('moonshine', ['preprocess.onnx', 'encode.int8.onnx', 'uncached_decode.int8.onnx', 'cached_decode.int8.onnx', 'tokens.txt']));
    assert.equal(moonshine.family, 'moonshine');

    assert.match(refusal(folder('whisper-half', ['tiny.en-encoder.onnx', 'tiny.en-tokens.txt'])), /missing the decoder/);
    assert.match(refusal(folder('transducer-half', ['encoder.onnx', 'joiner.onnx', 'tokens.txt'])), /missing the decoder/);
    assert.match(refusal(folder('moonshine-half', ['preprocess.onnx', 'encode.onnx', 'tokens.txt'])), /missing uncached_decode\.onnx.*missing cached_decode\.onnx/);
    assert.match(refusal(folder('doubled', ['encoder-a.onnx', 'encoder-b.onnx', 'decoder.onnx', 'joiner.onnx', 'tokens.txt'])), /more than one encoder file \(encoder-a\.onnx, encoder-b\.onnx\)/);
  });

  test('model names are language:name, and a folder name gives a default', () => {
    assert.deepEqual(parseModelName('en-us:whisper-small'), { language: 'en-us', model: 'whisper-small' });
    assert.throws(() => parseModelName('whisper'), /use language:name/);
    assert.throws(() => parseModelName('en-us:../../etc'), /use language:name/);
    assert.equal(defaultModelName('/x/sherpa-onnx-whisper-tiny.en'), 'en-us:whisper-tiny.en');
  });

  test('tokens become words: a leading space starts a word, word pieces join it, times stay inside the stretch', () => {
    const words = wordsFromTokens({ text: ' my cards', tokens: [' my', ' card', 's'], timestamps: [0.1, 0.6, 0.9] }, 1.2)!;
    assert.deepEqual(words.map((w) => w.word), ['my', 'cards']);
    assert.equal(words[0].start, 0.1);
    assert.ok(words[0].end <= 0.6, 'a word ends before the next begins');
    assert.equal(words[1].start, 0.6);
    assert.ok(words[1].end <= 1.2 && words[1].end > 0.9);
    const tdt = wordsFromTokens({ text: ' hi', tokens: [' hi'], timestamps: [0.2], durations: [0.32] }, 2)!;
    assert.equal(tdt[0].end, 0.52, 'durations are used when the model gives them');
    assert.equal(wordsFromTokens({ text: 'Hello, world.', tokens: [' Hello', ',', ' world', '.'], timestamps: [] }, 2), undefined, 'no times: aligned instead');
  });
});

describe('sherpa-onnx engine', { skip: required(!hasTool('ffmpeg') && 'ffmpeg is not installed') }, () => {
  let dir: string;
  let saved: { data?: string; models?: string };
  before(() => {
    dir = tempDir('scrubline-sherpa-');
    saved = { data: process.env.SCRUBLINE_DATA_DIR, models: process.env.SCRUBLINE_MODELS_DIR };
    process.env.SCRUBLINE_DATA_DIR = path.join(dir, 'data');
    delete process.env.SCRUBLINE_MODELS_DIR;
  });
  after(async () => {
    await closeSharedPool();
    for (const [key, value] of [['SCRUBLINE_DATA_DIR', saved.data], ['SCRUBLINE_MODELS_DIR', saved.models]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a model is load-checked, copied into the data directory and listed; a name is taken once', async () => {
    const added = await addModel(writeTinyNemoCtcModel(path.join(dir, 'tiny')), { name: 'en-us:tiny-ctc' });
    assert.equal(added.dir, path.join(dir, 'data', 'models', 'en-us', 'tiny-ctc'));
    assert.equal(addedModelsDir(), path.join(dir, 'data', 'models'));
    assert.ok(fs.existsSync(path.join(added.dir, 'model.onnx')), 'files copied in');
    assert.equal(added.manifest.probe?.ok, true);
    assert.ok((added.manifest.probe?.memoryBytes ?? 0) > 0, 'the load check measured memory');
    const info = listModels().find((m) => m.name === 'en-us:tiny-ctc');
    assert.equal(info?.installed, true);
    assert.equal(info?.engine, 'sherpa-onnx');
    assert.equal(info?.family, 'nemo-ctc');
    assert.equal(info?.wordTimes, 'model');
    await assert.rejects(addModel(path.join(dir, 'tiny'), { name: 'en-us:tiny-ctc' }), (e: Error) => e instanceof ModelAdminError && e.code === 'exists');
  });

  test('recognition runs through sherpa-onnx with word times from the tokens', async () => {
    const { file, tones } = writeToneSequence(path.join(dir, 'tones.wav'), [0.5, 'hello', 0.6, 'world', 0.6, 'hello', 's', 0.5]);
    const transcript = await recognizeFile(file, { model: 'en-us:tiny-ctc' });
    assert.equal(transcript.engine, 'sherpa-onnx');
    assert.equal(transcript.model, 'en-us:tiny-ctc');
    const words = transcript.channels[0].words;
    assert.deepEqual(words.map((w) => w.word), ['hello', 'world', 'hellos']);
    // Each word starts where its tone starts (10 ms frames) and covers it.
    const expected = [tones[0], tones[1], { start: tones[2].start, end: tones[3].end }];
    words.forEach((w, i) => {
      assert.ok(Math.abs(w.start - expected[i].start) <= 0.05, `${w.word} starts at ${w.start}, tone at ${expected[i].start}`);
      assert.ok(w.end >= expected[i].end - 0.05 && w.end <= expected[i].end + 0.55, `${w.word} ends at ${w.end}, tone at ${expected[i].end}`);
    });
  });

  test('each channel of a stereo call is recognized on its own, at any input rate', async () => {
    const left = writeToneSequence(path.join(dir, 'left.wav'), [0.3, 'hello', 1.5], { sampleRate: 8000 }).file;
    const right = writeToneSequence(path.join(dir, 'right.wav'), [1.2, 'world', 0.6], { sampleRate: 8000 }).file;
    const call = stereo(left, right, path.join(dir, 'call.wav'), ['-c:a', 'pcm_mulaw', '-ar', '8000']);
    const transcript = await recognizeFile(call, { model: 'en-us:tiny-ctc' });
    assert.equal(transcript.sourceSampleRate, 8000);
    assert.deepEqual(transcript.channels.map((c) => c.words.map((w) => w.word)), [['hello'], ['world']]);
    assert.ok(transcript.channels[1].words[0].start > 1.1);
  });

  test('a model whose folder breaks after it was added is reported, not crashed on', async () => {
    await addModel(writeTinyNemoCtcModel(path.join(dir, 'fragile')), { name: 'en-us:fragile' });
    fs.rmSync(path.join(dir, 'data', 'models', 'en-us', 'fragile', 'tokens.txt'));
    const info = listModels().find((m) => m.name === 'en-us:fragile');
    assert.equal(info?.installed, false);
    assert.match(info?.reason ?? '', /missing tokens\.txt/);
    const file = writeToneSequence(path.join(dir, 'one.wav'), [0.2, 'hello', 0.2]).file;
    await assert.rejects(recognizeFile(file, { model: 'en-us:fragile' }), /en-us:fragile is not usable: .*missing tokens\.txt/);
    assert.equal(removeModel('en-us:fragile').name, 'en-us:fragile');
    assert.equal(listModels().some((m) => m.name === 'en-us:fragile'), false);
  });

  test('a model that ONNX Runtime cannot load is refused by the load check and nothing is registered', async () => {
    const broken = writeTinyNemoCtcModel(path.join(dir, 'unloadable'));
    // Valid metadata and protobuf framing, but the graph is cut short: the runtime refuses it.
    const bytes = fs.readFileSync(path.join(broken, 'model.onnx'));
    fs.writeFileSync(path.join(broken, 'model.onnx'), Buffer.concat([bytes.subarray(0, 2), Buffer.from([0x3a, 0x05, 0x0a, 0x03, 0x66, 0x6f, 0x6f]), bytes.subarray(2)]));
    await assert.rejects(addModel(broken, { name: 'en-us:unloadable' }), (e: Error) => e instanceof ModelAdminError && e.code === 'load_failed' && /loading the model failed/.test(e.message));
    assert.equal(fs.existsSync(path.join(dir, 'data', 'models', 'en-us', 'unloadable')), false);
  });

  test('at start, a model whose files changed since its check is checked again; one that no longer loads is reported', async () => {
    await addModel(writeTinyNemoCtcModel(path.join(dir, 'swapped')), { name: 'en-us:swapped' });
    const logger = pino({ level: 'silent' });
    const first = await checkAddedModels(logger);
    assert.equal(listModels().find((m) => m.name === 'en-us:swapped')?.installed, true);
    assert.equal(await checkAddedModels(logger), 0, 'nothing changed: nothing checked');
    assert.ok(first >= 0);
    // Replaced behind the service's back by a file that still looks like a model but does not load.
    const file = path.join(dir, 'data', 'models', 'en-us', 'swapped', 'model.onnx');
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file, Buffer.concat([bytes.subarray(0, 2), Buffer.from([0x3a, 0x05, 0x0a, 0x03, 0x66, 0x6f, 0x6f]), bytes.subarray(2)]));
    assert.equal(listModels().find((m) => m.name === 'en-us:swapped')?.installed, true, 'its files still look right');
    assert.equal(await checkAddedModels(logger), 1);
    const info = listModels().find((m) => m.name === 'en-us:swapped');
    assert.equal(info?.installed, false);
    assert.match(info?.reason ?? '', /loading the model failed/);
    // Put right again: the next start checks it once more and it is usable.
    fs.writeFileSync(file, bytes);
    assert.equal(await checkAddedModels(logger), 1);
    assert.equal(listModels().find((m) => m.name === 'en-us:swapped')?.installed, true);
    removeModel('en-us:swapped');
  });

  test('a model registered in place is left where it is when removed', async () => {
    const own = writeTinyNemoCtcModel(path.join(dir, 'in-place'));
    const added = await addModel(own, { name: 'en-us:in-place', inPlace: true });
    assert.equal(added.manifest.path, own);
    assert.equal(fs.existsSync(path.join(added.dir, 'model.onnx')), false, 'not copied');
    removeModel('en-us:in-place');
    assert.ok(fs.existsSync(path.join(own, 'model.onnx')));
  });

  test('a worker keeps at most SCRUBLINE_MODELS_PER_WORKER models loaded, dropping the least recently used', async () => {
    process.env.SCRUBLINE_MODELS_PER_WORKER = '1';
    try {
      for (const name of ['lru-a', 'lru-b', 'lru-c']) await addModel(writeTinyNemoCtcModel(path.join(dir, name)), { name: `en-us:${name}` });
      const file = writeToneSequence(path.join(dir, 'lru.wav'), [0.2, 'hello', 0.2]).file;
      for (const name of ['lru-a', 'lru-b', 'lru-c']) {
        const t = await recognizeFile(file, { model: `en-us:${name}` });
        assert.deepEqual(t.channels[0].words.map((w) => w.word), ['hello']);
      }
      const copies = sherpaEngine().loadedCopies();
      const lru = Object.entries(copies).filter(([m]) => m.startsWith('en-us:lru-'));
      const total = lru.reduce((sum, [, n]) => sum + n, 0);
      assert.ok(total >= 1 && total <= defaultPoolSize(), `one model per worker at most: ${JSON.stringify(copies)}`);
      assert.equal(copies['en-us:lru-c'], 1, 'the latest is held');
      // The pool closed (its threads and their models gone) and made again: nothing is counted as loaded,
      // and the engine decodes on the new pool.
      await closeSharedPool();
      assert.deepEqual(sherpaEngine().loadedCopies(), {});
      const again = await recognizeFile(file, { model: 'en-us:lru-a' });
      assert.deepEqual(again.channels[0].words.map((w) => w.word), ['hello']);
      assert.equal(sherpaEngine().loadedCopies()['en-us:lru-a'], 1);
    } finally {
      delete process.env.SCRUBLINE_MODELS_PER_WORKER;
    }
  });

  test('a transducer (Zipformer-shaped) decodes through sherpa-onnx with times from its frames', async () => {
    await addModel(writeTinyTransducerModel(path.join(dir, 'tiny-rnnt')), { name: 'en-us:tiny-rnnt' });
    assert.equal(listModels().find((m) => m.name === 'en-us:tiny-rnnt')?.family, 'transducer');
    const { file, tones } = writeToneSequence(path.join(dir, 'rnnt.wav'), [0.5, 'hello', 0.5, 'world', 0.4, 'hello', 's', 0.3]);
    const words = (await recognizeFile(file, { model: 'en-us:tiny-rnnt' })).channels[0].words;
    assert.deepEqual(words.map((w) => w.word), ['hello', 'world', 'hellos']);
    // Frames are 40 ms after the 4x subsampling sherpa-onnx assumes for transducers.
    [tones[0].start, tones[1].start, tones[2].start].forEach((start, i) => assert.ok(Math.abs(words[i].start - start) <= 0.06, `${words[i].word} at ${words[i].start}, tone at ${start}`));
    assert.ok(words[2].end >= tones[3].start, 'the word with its piece covers both tones');
  });

  test('ffmpeg is what reads the input: compressed audio works too', async () => {
    const wav = writeToneSequence(path.join(dir, 'c.wav'), [0.3, 'world', 0.3]).file;
    const ogg = path.join(dir, 'c.ogg');
    ffmpeg(['-i', wav, '-c:a', 'libvorbis', ogg]);
    const transcript = await recognizeFile(ogg, { model: 'en-us:tiny-ctc' });
    assert.deepEqual(transcript.channels[0].words.map((w) => w.word), ['world']);
  });
});
