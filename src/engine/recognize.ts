// The pipeline entry the job worker calls: a recording on disk → the internal word-timed Transcript.
//   probe (ffprobe) → decode every channel to the engine's PCM (ffmpeg) → recognize the channels in parallel
//   (each through the decoder pool) → Transcript.
// Errors: AudioError (empty, not audio, truncated, too long, ...) and ModelNotInstalled carry `permanent: true`,
// so the job fails at once with that reason instead of being retried.
import { decodeChannels } from '../audio/decode.js';
import { probeAudio } from '../audio/probe.js';
import type { EngineParams } from '../schema/resources/engineParams.js';
import type { ChannelTranscript, Transcript } from '../transcript/types.js';
import type { Engine } from './engine.js';
import { chooseModelForAudio } from './bandwidth.js';
import { DEFAULT_MODEL, WIDEBAND_MODEL, isAutoModel } from './models.js';
import { ModelNotInstalled, PocketSphinxEngine } from './pocketsphinx/engine.js';
import { SherpaOnnxEngine } from './sherpa/engine.js';

export interface RecognizeFileOptions {
  /** `language:name`; `en-us:auto` (the default; also 'auto'): chosen by the audio (telephone band → en-us:telephony). */
  model?: string;
  /** Engine parameters in force (VAD thresholds...); missing ones take their defaults. */
  params?: Partial<EngineParams> | Record<string, unknown>;
  /** Refuse recordings longer than this (seconds). */
  maxSeconds?: number;
  /** The engine to use (default: the one that owns the model). */
  engine?: Engine;
  /** Stops probing, decoding and recognition (ffmpeg is killed, pool tasks dropped); rejects with its reason. */
  signal?: AbortSignal;
  /** The share of recognition done (0..1, over every channel's batches), as batches finish. */
  onProgress?: (fraction: number) => void;
}

export interface RecognizePcmOptions extends Omit<RecognizeFileOptions, 'maxSeconds'> {
  /** Sample rate of the recording before it was resampled for the engine (reported in the transcript). */
  sourceSampleRate?: number;
}

let engines: Engine[] | undefined;

/** The engines of this process: the bundled PocketSphinx, and sherpa-onnx for the models operators add. */
export function availableEngines(): Engine[] {
  engines ??= [new PocketSphinxEngine(), new SherpaOnnxEngine()];
  return engines;
}

/** The process's sherpa-onnx engine (what its loaded models hold is reported by /asr/sysinfo). */
export function sherpaEngine(): SherpaOnnxEngine {
  return availableEngines().find((e): e is SherpaOnnxEngine => e instanceof SherpaOnnxEngine)!;
}

/** The engine that owns `model`, or ModelNotInstalled naming the known models. */
export function engineFor(model: string): Engine {
  const all = availableEngines();
  const engine = all.find((e) => e.models().some((m) => m.name === model));
  if (!engine) {
    const known = all.flatMap((e) => e.models().map((m) => m.name)).join(', ');
    throw new ModelNotInstalled(`Unknown model "${model}" (known: ${known})`);
  }
  return engine;
}

export async function recognizeFile(path: string, options: RecognizeFileOptions = {}): Promise<Transcript> {
  const started = performance.now();
  const requested = options.model || DEFAULT_MODEL;
  const auto = isAutoModel(requested);
  // With 'auto', the audio is decoded at the rate of the wideband model (every en-us model shares it).
  const provisional = auto ? WIDEBAND_MODEL : requested;
  const sampleRate = (options.engine ?? engineFor(provisional)).sampleRate(provisional); // throws ModelNotInstalled before any decoding
  const probe = await probeAudio(path, { maxSeconds: options.maxSeconds, signal: options.signal });
  const audio = await decodeChannels(path, { sampleRate, maxSeconds: options.maxSeconds, probe, signal: options.signal });
  const model = auto ? chooseModelForAudio(requested, probe.sampleRate, audio.channels, sampleRate).model : requested;
  const engine = options.engine ?? engineFor(model);
  if (engine.sampleRate(model) !== sampleRate) throw new Error(`${model} needs ${engine.sampleRate(model)} Hz PCM, got ${sampleRate} Hz`);
  return finish(
    await recognizeChannels(engine, audio.channels, sampleRate, model, options.params ?? {}, options.signal, options.onProgress),
    { model, engine, audioSeconds: audio.durationSeconds, sourceSampleRate: probe.sampleRate, started },
  );
}

/** The same for PCM already in memory (one Int16Array per channel, at the engine's sample rate). */
export async function recognizePcm(channels: Int16Array[], sampleRate: number, options: RecognizePcmOptions = {}): Promise<Transcript> {
  const started = performance.now();
  const model = chooseModelForAudio(options.model || DEFAULT_MODEL, options.sourceSampleRate ?? sampleRate, channels, sampleRate).model;
  const engine = options.engine ?? engineFor(model);
  const wanted = engine.sampleRate(model);
  if (sampleRate !== wanted) throw new Error(`${model} needs ${wanted} Hz PCM, got ${sampleRate} Hz`);
  const audioSeconds = channels.length > 0 ? channels[0].length / sampleRate : 0;
  return finish(await recognizeChannels(engine, channels, sampleRate, model, options.params ?? {}), {
    model,
    engine,
    audioSeconds,
    sourceSampleRate: options.sourceSampleRate ?? sampleRate,
    started,
  });
}

async function recognizeChannels(
  engine: Engine,
  channels: Int16Array[],
  sampleRate: number,
  model: string,
  params: Partial<EngineParams> | Record<string, unknown>,
  signal?: AbortSignal,
  onProgress?: (fraction: number) => void,
): Promise<ChannelTranscript[]> {
  // Each channel's share done; the whole is their mean.
  const shares = channels.map(() => 0);
  const progress = (channel: number) =>
    onProgress &&
    ((done: number, total: number) => {
      shares[channel] = total === 0 ? 1 : done / total;
      onProgress(shares.reduce((a, b) => a + b, 0) / shares.length);
    });
  // All channels at once: the pool runs as many as it has workers.
  const results = await Promise.all(
    channels.map((samples, channel) => engine.recognize({ channel, sampleRate, samples }, { model, params: params as EngineParams, signal, onProgress: progress(channel) })),
  );
  signal?.throwIfAborted();
  return results.map(({ channel, words, segments }) => ({ channel, words, segments }));
}

function finish(
  channels: ChannelTranscript[],
  info: { model: string; engine: Engine; audioSeconds: number; sourceSampleRate: number; started: number },
): Transcript {
  return {
    model: info.model,
    engine: info.engine.name,
    language: info.model.split(':')[0],
    audioSeconds: Math.round(info.audioSeconds * 1000) / 1000,
    sourceSampleRate: info.sourceSampleRate,
    channels,
    processingSeconds: Math.round((performance.now() - info.started)) / 1000,
  };
}
