// A tiny but real NeMo-CTC-shaped ONNX model, written with the ONNX protobuf schema (onnx-proto), so that the
// sherpa-onnx engine is tested end to end without downloading weights: sherpa-onnx computes its 80 log-mel
// features, runs this graph through ONNX Runtime and CTC-decodes the output like any NeMo model's.
//
// The graph scores each token from the energy in its own mel band against the mean over all bands:
//   logprobs = LogSoftmax(Transpose(features) · W + b)
// so a tone is "heard" as the token of its band and quiet as the blank:
//   ~300 Hz → "▁hello", ~2 kHz → "▁world", ~5.5 kHz → "s" (a word piece, joined to the word before it).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ffmpeg } from './audio.js';

const { onnx } = createRequire(import.meta.url)('onnx-proto') as typeof import('onnx-proto');

export const TINY_TOKENS = ['<blk>', '▁hello', '▁world', 's'];
/** Tone frequency (Hz) that each non-blank token answers to. */
export const TONE_HZ = { hello: 300, world: 2000, s: 5500 } as const;
const BANDS: Record<number, [number, number]> = { 1: [6, 10], 2: [42, 47], 3: [68, 73] };
const FEATURES = 80;

export interface TinyModelOptions {
  /** Leave out the metadata sherpa-onnx needs (to test refusals). */
  metadata?: Record<string, string>;
  /** Write tokens.txt without the blank symbol. */
  noBlank?: boolean;
  /**
   * Extra compute of a realistic size for benchmarks: `layers` dense ReLU layers of `size` units whose result
   * is added with zero weight — the runtime does the work, the output (and so the words) stay the same.
   */
  ballast?: { size: number; layers: number };
}

export function writeTinyNemoCtcModel(dir: string, options: TinyModelOptions = {}): string {
  const V = TINY_TOKENS.length;
  const W = new Float32Array(FEATURES * V);
  for (const [k, [lo, hi]] of Object.entries(BANDS)) {
    for (let f = 0; f < FEATURES; f++) W[f * V + Number(k)] = (f >= lo && f < hi ? 1 / (hi - lo) : 0) - 1 / FEATURES;
  }
  const B = new Float32Array([3, 0, 0, 0]);
  const T = onnx.TensorProto;
  const tensor = (name: string, dims: number[], data: Float32Array) =>
    T.create({ name, dims, dataType: T.DataType.FLOAT, rawData: new Uint8Array(data.buffer) });
  const valueInfo = (name: string, elemType: number, dims: (number | string)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
    });
  const attr = onnx.AttributeProto.AttributeType;
  const nodes: object[] = [
    { opType: 'Transpose', input: ['audio_signal'], output: ['x'], attribute: [{ name: 'perm', type: attr.INTS, ints: [0, 2, 1] }] },
    { opType: 'MatMul', input: ['x', 'W'], output: ['y'] },
    { opType: 'Add', input: ['y', 'B'], output: ['z'] },
  ];
  const initializers = [tensor('W', [FEATURES, V], W), tensor('B', [V], B)];
  let scores = 'z';
  if (options.ballast) {
    const { size, layers } = options.ballast;
    let seed = 7;
    const random = (n: number) => Float32Array.from({ length: n }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.1);
    let input = 'x';
    let width = FEATURES;
    for (let l = 0; l < layers; l++) {
      initializers.push(tensor(`H${l}`, [width, size], random(width * size)));
      nodes.push({ opType: 'MatMul', input: [input, `H${l}`], output: [`h${l}`] }, { opType: 'Relu', input: [`h${l}`], output: [`r${l}`] });
      input = `r${l}`;
      width = size;
    }
    initializers.push(tensor('Zero', [width, V], new Float32Array(width * V)));
    nodes.push({ opType: 'MatMul', input: [input, 'Zero'], output: ['ballast'] }, { opType: 'Add', input: ['z', 'ballast'], output: ['zb'] });
    scores = 'zb';
  }
  nodes.push({ opType: 'LogSoftmax', input: [scores], output: ['logprobs'], attribute: [{ name: 'axis', type: attr.INT, i: -1 }] });
  const graph = onnx.GraphProto.create({
    name: 'tiny-nemo-ctc',
    node: nodes,
    initializer: initializers,
    input: [valueInfo('audio_signal', T.DataType.FLOAT, ['N', FEATURES, 'T']), valueInfo('length', T.DataType.INT64, ['N'])],
    output: [valueInfo('logprobs', T.DataType.FLOAT, ['N', 'T', V])],
  });
  const metadata = options.metadata ?? { model_type: 'EncDecCTCModelBPE', vocab_size: String(V), subsampling_factor: '1', normalize_type: '' };
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'scrubline-test',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
    metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value })),
  });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'model.onnx'), onnx.ModelProto.encode(model).finish());
  const tokens = TINY_TOKENS.map((t, i) => `${t} ${i}`).filter((_, i) => !(options.noBlank && i === 0));
  fs.writeFileSync(path.join(dir, 'tokens.txt'), `${tokens.join('\n')}\n`);
  return dir;
}

/**
 * A tiny transducer (Zipformer-shaped: encoder, decoder, joiner, tokens.txt) on the same idea:
 *   encoder: features (N, T, 80) → every 4th frame (the subsampling sherpa-onnx assumes) · W + b → (N, T/4, V)
 *   decoder: the last token of the context → its one-hot row (N, V)
 *   joiner:  encoder frame − 10 · decoder one-hot: the token just emitted is not emitted again while its tone
 *            lasts (a transducer emits per frame; this stands in for what a trained decoder learns).
 * So alternating tones decode to alternating words with times from the frames (no repeat of the same word
 * twice in a row: the context remembers it across the pause).
 */
export function writeTinyTransducerModel(dir: string, options: { encoderMetadata?: Record<string, string> } = {}): string {
  const V = TINY_TOKENS.length;
  const W = new Float32Array(FEATURES * V);
  for (const [k, [lo, hi]] of Object.entries(TRANSDUCER_BANDS)) {
    for (let f = 0; f < FEATURES; f++) W[f * V + Number(k)] = (f >= lo && f < hi ? 1 / (hi - lo) : 0) - 1 / FEATURES;
  }
  const T = onnx.TensorProto;
  const float = (name: string, dims: number[], data: Float32Array) => T.create({ name, dims, dataType: T.DataType.FLOAT, rawData: new Uint8Array(data.buffer) });
  const int64 = (name: string, dims: number[], values: number[]) =>
    T.create({ name, dims, dataType: T.DataType.INT64, rawData: new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer) });
  const valueInfo = (name: string, elemType: number, dims: (number | string)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
    });
  const write = (file: string, graph: object, metadata: Record<string, string> = {}) =>
    fs.writeFileSync(
      path.join(dir, file),
      onnx.ModelProto.encode(
        onnx.ModelProto.create({
          irVersion: 7,
          producerName: 'scrubline-test',
          opsetImport: [{ domain: '', version: 13 }],
          graph: onnx.GraphProto.create(graph),
          metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value })),
        }),
      ).finish(),
    );
  fs.mkdirSync(dir, { recursive: true });
  const F = T.DataType.FLOAT;
  const I = T.DataType.INT64;
  write('encoder-epoch-1-avg-1.onnx', {
    name: 'tiny-encoder',
    node: [
      { opType: 'Slice', input: ['x', 'starts', 'ends', 'axes', 'steps'], output: ['sub'] },
      { opType: 'MatMul', input: ['sub', 'W'], output: ['y'] },
      { opType: 'Add', input: ['y', 'B'], output: ['encoder_out'] },
      { opType: 'Add', input: ['x_lens', 'three'], output: ['l3'] },
      { opType: 'Div', input: ['l3', 'four'], output: ['encoder_out_lens'] },
    ],
    initializer: [
      float('W', [FEATURES, V], W),
      float('B', [V], new Float32Array([3, 0, 0, 0])),
      int64('starts', [1], [0]),
      int64('ends', [1], [2 ** 31 - 1]),
      int64('axes', [1], [1]),
      int64('steps', [1], [4]),
      int64('three', [], [3]),
      int64('four', [], [4]),
    ],
    input: [valueInfo('x', F, ['N', 'T', FEATURES]), valueInfo('x_lens', I, ['N'])],
    output: [valueInfo('encoder_out', F, ['N', 'S', V]), valueInfo('encoder_out_lens', I, ['N'])],
  }, options.encoderMetadata ?? { model_type: 'zipformer2', version: '1', model_author: 'scrubline-test' });
  const identity = new Float32Array(V * V);
  // Row 0 (the blank that starts every context) penalizes nothing.
  for (let i = 1; i < V; i++) identity[i * V + i] = 1;
  write(
    'decoder-epoch-1-avg-1.onnx',
    {
      name: 'tiny-decoder',
      node: [
        { opType: 'Gather', input: ['y', 'last'], output: ['token'], attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 1 }] },
        { opType: 'Gather', input: ['E', 'token'], output: ['decoder_out'] },
      ],
      initializer: [float('E', [V, V], identity), int64('last', [], [1])],
      input: [valueInfo('y', I, ['N', 2])],
      output: [valueInfo('decoder_out', F, ['N', V])],
    },
    { vocab_size: String(V), context_size: '2' },
  );
  write('joiner-epoch-1-avg-1.onnx', {
    name: 'tiny-joiner',
    node: [
      { opType: 'Mul', input: ['decoder_out', 'penalty'], output: ['p'] },
      { opType: 'Sub', input: ['encoder_out', 'p'], output: ['logit'] },
    ],
    initializer: [float('penalty', [], new Float32Array([10]))],
    input: [valueInfo('encoder_out', F, ['N', V]), valueInfo('decoder_out', F, ['N', V])],
    output: [valueInfo('logit', F, ['N', V])],
  });
  fs.writeFileSync(path.join(dir, 'tokens.txt'), `${TINY_TOKENS.map((t, i) => `${t} ${i}`).join('\n')}\n`);
  return dir;
}

/** Kaldi fbank bands (transducers: 20-7600 Hz, HTK mel) holding the same tones. */
const TRANSDUCER_BANDS: Record<number, [number, number]> = { 1: [8, 13], 2: [41, 46], 3: [68, 73] };

/**
 * A recording of tones and pauses: each step is a token name (a tone of `seconds`) or a number (that many
 * seconds of silence). Returns the file and each tone's [start, end] in seconds.
 */
export function writeToneSequence(
  out: string,
  steps: (keyof typeof TONE_HZ | number)[],
  options: { sampleRate?: number; toneSeconds?: number } = {},
): { file: string; tones: { token: string; start: number; end: number }[] } {
  const rate = options.sampleRate ?? 16000;
  const toneSeconds = options.toneSeconds ?? 0.5;
  const inputs: string[] = [];
  const tones: { token: string; start: number; end: number }[] = [];
  let t = 0;
  for (const step of steps) {
    if (typeof step === 'number') {
      inputs.push('-f', 'lavfi', '-i', `anullsrc=r=${rate}:cl=mono:d=${step}`);
      t += step;
    } else {
      // Faded in and out: an abrupt edge splashes energy over every band (a spurious token).
      inputs.push('-f', 'lavfi', '-i', `sine=f=${TONE_HZ[step]}:r=${rate}:d=${toneSeconds},afade=t=in:d=0.02,afade=t=out:st=${toneSeconds - 0.02}:d=0.02`);
      tones.push({ token: step, start: t, end: t + toneSeconds });
      t += toneSeconds;
    }
  }
  const n = inputs.length / 4;
  const filter = `${Array.from({ length: n }, (_, i) => `[${i}]`).join('')}concat=n=${n}:v=0:a=1,volume=0.5`;
  ffmpeg([...inputs, '-filter_complex', filter, '-ac', '1', '-ar', String(rate), out]);
  return { file: out, tones };
}

/**
 * A tiny streaming (cache-aware) NeMo CTC model, as sherpa-onnx's OnlineRecognizer runs it: the metadata names
 * the chunk (window_size feature frames, advanced by chunk_shift) and the shapes of the three cache states;
 * each call takes one chunk (N, 80, window_size) with the states and returns log-probs for every 4th frame (the
 * subsampling sherpa-onnx assumes for streaming CTC times and endpoints) and the states unchanged. Scores as the
 * transducer above (Kaldi fbank bands): the same tones make the same words, one chunk at a time, so partials
 * grow while a tone sequence plays and trailing quiet (blanks) ends the utterance.
 */
export function writeTinyOnlineModel(
  dir: string,
  options: {
    metadata?: Record<string, string>;
    /** Other words for the three tones (e.g. digits, to test redaction); the blank stays. */
    tokens?: [string, string, string];
  } = {},
): string {
  const symbols = options.tokens ? [TINY_TOKENS[0], ...options.tokens] : TINY_TOKENS;
  const V = symbols.length;
  const W = new Float32Array(FEATURES * V);
  for (const [k, [lo, hi]] of Object.entries(TRANSDUCER_BANDS)) {
    for (let f = 0; f < FEATURES; f++) W[f * V + Number(k)] = (f >= lo && f < hi ? 1 / (hi - lo) : 0) - 1 / FEATURES;
  }
  const T = onnx.TensorProto;
  const F = T.DataType.FLOAT;
  const I = T.DataType.INT64;
  const float = (name: string, dims: number[], data: Float32Array) => T.create({ name, dims, dataType: F, rawData: new Uint8Array(data.buffer) });
  const int64 = (name: string, dims: number[], values: number[]) =>
    T.create({ name, dims, dataType: I, rawData: new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer) });
  const valueInfo = (name: string, elemType: number, dims: (number | string)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
    });
  const WINDOW = 16;
  const graph = onnx.GraphProto.create({
    name: 'tiny-online-nemo-ctc',
    node: [
      // (N, 80, window) → every 4th frame → (N, window/4, 80) → scores per token.
      { opType: 'Slice', input: ['audio_signal', 'starts', 'ends', 'axes', 'steps'], output: ['sub'] },
      { opType: 'Transpose', input: ['sub'], output: ['x'], attribute: [{ name: 'perm', type: onnx.AttributeProto.AttributeType.INTS, ints: [0, 2, 1] }] },
      { opType: 'MatMul', input: ['x', 'W'], output: ['y'] },
      { opType: 'Add', input: ['y', 'B'], output: ['z'] },
      { opType: 'LogSoftmax', input: ['z'], output: ['logprobs'], attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 }] },
      { opType: 'Div', input: ['length', 'four'], output: ['encoded_lengths'] },
      { opType: 'Identity', input: ['cache_last_channel'], output: ['cache_last_channel_next'] },
      { opType: 'Identity', input: ['cache_last_time'], output: ['cache_last_time_next'] },
      { opType: 'Identity', input: ['cache_last_channel_len'], output: ['cache_last_channel_len_next'] },
    ],
    initializer: [
      float('W', [FEATURES, V], W),
      float('B', [V], new Float32Array([3, 0, 0, 0])),
      int64('starts', [1], [0]),
      int64('ends', [1], [2 ** 31 - 1]),
      int64('axes', [1], [2]),
      int64('steps', [1], [4]),
      int64('four', [], [4]),
    ],
    input: [
      valueInfo('audio_signal', F, ['N', FEATURES, 'T']),
      valueInfo('length', I, ['N']),
      valueInfo('cache_last_channel', F, ['N', 1, 1, 1]),
      valueInfo('cache_last_time', F, ['N', 1, 1, 1]),
      valueInfo('cache_last_channel_len', I, ['N']),
    ],
    output: [
      valueInfo('logprobs', F, ['N', 'S', V]),
      valueInfo('encoded_lengths', I, ['N']),
      valueInfo('cache_last_channel_next', F, ['N', 1, 1, 1]),
      valueInfo('cache_last_time_next', F, ['N', 1, 1, 1]),
      valueInfo('cache_last_channel_len_next', I, ['N']),
    ],
  });
  const metadata = options.metadata ?? {
    model_type: 'EncDecCTCModelBPE',
    vocab_size: String(V - 1),
    subsampling_factor: '4',
    window_size: String(WINDOW),
    chunk_shift: String(WINDOW),
    cache_last_channel_dim1: '1',
    cache_last_channel_dim2: '1',
    cache_last_channel_dim3: '1',
    cache_last_time_dim1: '1',
    cache_last_time_dim2: '1',
    cache_last_time_dim3: '1',
  };
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'scrubline-test',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
    metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value })),
  });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'model.onnx'), onnx.ModelProto.encode(model).finish());
  fs.writeFileSync(path.join(dir, 'tokens.txt'), `${symbols.map((t, i) => `${t} ${i}`).join('\n')}\n`);
  return dir;
}
