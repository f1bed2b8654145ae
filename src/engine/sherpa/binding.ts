// The slice of sherpa-onnx-node (npm, Apache-2.0; its linux-x64 package carries the native library and ONNX
// Runtime) that the engine uses, typed here because the package ships none. Loaded lazily so that a machine
// without it still runs the bundled engine; `loadSherpaOnnx()` throws SherpaUnavailable saying why.
import { createRequire } from 'node:module';

export class SherpaUnavailable extends Error {
  readonly permanent = true;
  constructor(message: string) {
    super(message);
    this.name = 'SherpaUnavailable';
  }
}

export interface OfflineRecognizerResult {
  text: string;
  tokens: string[];
  /** Seconds from the start of the stream, one per token (empty for models that give none, e.g. Whisper). */
  timestamps: number[];
  /** Seconds, one per token (TDT transducers only). */
  durations: number[];
  lang?: string;
}

export interface OfflineStream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
}

export interface OfflineRecognizer {
  createStream(): OfflineStream;
  decode(stream: OfflineStream): void;
  getResult(stream: OfflineStream): OfflineRecognizerResult;
}

/** OfflineRecognizerConfig as sherpa-onnx-node takes it (only the fields we set). */
export interface OfflineRecognizerConfig {
  featConfig: { sampleRate: number; featureDim: number };
  modelConfig: Record<string, unknown> & { tokens: string; numThreads: number; provider: string; debug: number };
  decodingMethod: string;
}

/** What sherpa-onnx's online recognizer says about a stream (getResult). */
export interface OnlineRecognizerResult {
  text: string;
  tokens: string[];
  /** Seconds from `start_time`, one per token. */
  timestamps: number[];
  /** Seconds of the stream at which the current utterance (segment) began. */
  start_time: number;
  segment: number;
}

export interface OnlineStream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}

export interface OnlineRecognizer {
  createStream(): OnlineStream;
  isReady(stream: OnlineStream): boolean;
  decode(stream: OnlineStream): void;
  isEndpoint(stream: OnlineStream): boolean;
  reset(stream: OnlineStream): void;
  getResult(stream: OnlineStream): OnlineRecognizerResult;
}

export interface OnlineRecognizerConfig {
  featConfig: { sampleRate: number; featureDim: number };
  modelConfig: Record<string, unknown> & { tokens: string; numThreads: number; provider: string; debug: number };
  decodingMethod: string;
  enableEndpoint: number;
  rule1MinTrailingSilence?: number;
  rule2MinTrailingSilence?: number;
  rule3MinUtteranceLength?: number;
}

export interface SherpaOnnx {
  OfflineRecognizer: new (config: OfflineRecognizerConfig) => OfflineRecognizer;
  OnlineRecognizer: new (config: OnlineRecognizerConfig) => OnlineRecognizer;
  version?: string;
}

let cached: SherpaOnnx | undefined;

export function loadSherpaOnnx(): SherpaOnnx {
  if (cached) return cached;
  try {
    cached = createRequire(import.meta.url)('sherpa-onnx-node') as SherpaOnnx;
    return cached;
  } catch (error) {
    throw new SherpaUnavailable(`sherpa-onnx-node could not be loaded (${(error as Error).message.split('\n')[0]}): run npm ci`);
  }
}

/** The installed sherpa-onnx-node version (for /asr/status). */
export function sherpaOnnxVersion(): string | undefined {
  try {
    return (createRequire(import.meta.url)('sherpa-onnx-node/package.json') as { version: string }).version;
  } catch {
    return undefined;
  }
}
