// Streaming (online) sherpa-onnx models: a live channel decoded chunk by chunk on a stream worker thread
// (engine/streamWorker.ts), and — for the after-call job and any batch request — the same model over whole
// stretches. The online recognizer ends an utterance itself (endpoint rules: trailing blanks after words, the
// engine's uttmaxsilence; its length, uttmaxtime); its tokens carry times from the start of the utterance, which
// begins at the result's start_time, so final words get times from the model (words.ts), as offline ones do.
//
// A recognizer is loaded once per model (and endpoint settings) per thread and kept; each channel is a fresh
// stream of it. Synchronous and CPU-bound: worker threads only, never the event loop.
import type { VadParams } from '../../audio/vad.js';
import type { Word } from '../../transcript/types.js';
import type { StreamStep } from '../pocketsphinx/streamDecoder.js';
import { loadSherpaOnnx, type OnlineRecognizer, type OnlineRecognizerResult, type OnlineStream } from './binding.js';
import type { SherpaModelSpec } from './modelFolder.js';
import { onlineRecognizerConfig, SHERPA_SAMPLE_RATE, type OnlineEndpoint } from './recognizerConfig.js';
import { wordsFromTokens } from './words.js';

/** Quiet fed after the last audio: a streaming model decodes only whole chunks, and its last one needs right context. */
const TAIL_SECONDS = 0.8;
/** Endpoints are checked this often (samples): a backlog arriving as one long chunk still ends each utterance where it ends. */
const STEP_SAMPLES = SHERPA_SAMPLE_RATE / 10;
/** Recognizers one thread keeps (models × endpoint settings), least recently used dropped first. */
const KEEP = 4;

const recognizers = new Map<string, OnlineRecognizer>();

/** The models this thread holds online recognizers of (names). */
export function heldOnlineModels(): string[] {
  return [...new Set([...recognizers.keys()].map((k) => k.slice(0, k.indexOf(' '))))];
}

function recognizerFor(model: string, spec: SherpaModelSpec, endpoint?: OnlineEndpoint): { recognizer: OnlineRecognizer; initSeconds: number } {
  const key = `${model} ${JSON.stringify(spec)} ${JSON.stringify(endpoint ?? null)}`;
  const existing = recognizers.get(key);
  if (existing) {
    recognizers.delete(key);
    recognizers.set(key, existing);
    return { recognizer: existing, initSeconds: 0 };
  }
  // A recognizer dropped here lives on in the streams still using it (they hold it).
  while (recognizers.size >= KEEP) recognizers.delete(recognizers.keys().next().value!);
  const t0 = performance.now();
  const recognizer = new (loadSherpaOnnx().OnlineRecognizer)(onlineRecognizerConfig(spec, endpoint));
  recognizers.set(key, recognizer);
  return { recognizer, initSeconds: (performance.now() - t0) / 1000 };
}

/** The engine's VAD parameters as the online recognizer's endpoint rules. */
export function endpointFrom(vad: VadParams): OnlineEndpoint {
  const afterWords = Math.max(0.1, vad.uttmaxsilence / 1000);
  return { silenceAfterWords: afterWords, silenceBeforeWords: Math.max(afterWords, 2.4), maxUtterance: vad.uttmaxtime };
}

function floats(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i] / 32768;
  return out;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Words of a result with times from the start of the stream; `heard`: seconds of the stream decoded so far. */
function wordsOf(result: OnlineRecognizerResult, heard: number): Word[] {
  const offset = result.start_time;
  const words = wordsFromTokens(result, Math.max(0, heard - offset)) ?? [];
  return words.map((w) => ({ ...w, start: round3(w.start + offset), end: round3(w.end + offset) }));
}

/** One stretch of PCM (16 kHz) through a streaming model in one go: its words, times from the stretch's start. */
export function decodeOnlineUnit(model: string, spec: SherpaModelSpec, pcm: Int16Array): { words: Word[]; initSeconds: number } {
  const { recognizer, initSeconds } = recognizerFor(model, spec);
  const stream = recognizer.createStream();
  stream.acceptWaveform({ samples: floats(pcm), sampleRate: SHERPA_SAMPLE_RATE });
  stream.acceptWaveform({ samples: new Float32Array(Math.round(TAIL_SECONDS * SHERPA_SAMPLE_RATE)), sampleRate: SHERPA_SAMPLE_RATE });
  stream.inputFinished();
  while (recognizer.isReady(stream)) recognizer.decode(stream);
  const seconds = pcm.length / SHERPA_SAMPLE_RATE;
  return { words: wordsOf(recognizer.getResult(stream), seconds).filter((w) => w.start < seconds), initSeconds };
}

/** One channel of a live stream on a streaming sherpa-onnx model (the stream worker's decoder for it). */
export class SherpaStreamDecoder {
  private readonly recognizer: OnlineRecognizer;
  private readonly stream: OnlineStream;
  /** Samples fed (16 kHz). */
  private fed = 0;
  private lastPartial = '';
  private closed = false;

  constructor(model: string, spec: SherpaModelSpec, vad: VadParams) {
    this.recognizer = recognizerFor(model, spec, endpointFrom(vad)).recognizer;
    this.stream = this.recognizer.createStream();
  }

  accept(samples: Int16Array): StreamStep {
    const t0 = performance.now();
    const finals: StreamStep['finals'] = [];
    for (let at = 0; at < samples.length; at += STEP_SAMPLES) {
      const part = samples.subarray(at, Math.min(samples.length, at + STEP_SAMPLES));
      this.stream.acceptWaveform({ samples: floats(part), sampleRate: SHERPA_SAMPLE_RATE });
      this.fed += part.length;
      while (this.recognizer.isReady(this.stream)) this.recognizer.decode(this.stream);
      if (this.recognizer.isEndpoint(this.stream)) {
        const final = this.final();
        if (final) finals.push(final);
        this.recognizer.reset(this.stream);
      }
    }
    const partial = this.partial();
    return { finals, ...(partial && { partial }), heardSeconds: this.heard(), decodeSeconds: (performance.now() - t0) / 1000 };
  }

  /** End of the channel: the last chunk decoded with quiet after it, the open utterance final. */
  finish(): StreamStep {
    const t0 = performance.now();
    const heard = this.heard();
    this.stream.acceptWaveform({ samples: new Float32Array(Math.round(TAIL_SECONDS * SHERPA_SAMPLE_RATE)), sampleRate: SHERPA_SAMPLE_RATE });
    this.stream.inputFinished();
    while (this.recognizer.isReady(this.stream)) this.recognizer.decode(this.stream);
    const final = this.final(heard);
    return { finals: final ? [final] : [], heardSeconds: heard, decodeSeconds: (performance.now() - t0) / 1000 };
  }

  free(): void {
    // The native stream is freed with its object; nothing more is decoded.
    this.closed = true;
  }

  private heard(): number {
    return this.fed / SHERPA_SAMPLE_RATE;
  }

  /** The utterance just ended, or undefined when it recognized nothing and showed no partial. */
  private final(heard = this.heard()): StreamStep['finals'][number] | undefined {
    const result = this.recognizer.getResult(this.stream);
    const words = wordsOf(result, heard).filter((w) => w.start < heard);
    const shown = this.lastPartial !== '';
    this.lastPartial = '';
    if (words.length === 0 && !shown) return undefined;
    // A partial was shown: the final (even empty) replaces it.
    const start = words.length > 0 ? words[0].start : round3(result.start_time);
    const end = words.length > 0 ? Math.max(...words.map((w) => w.end)) : round3(heard);
    return { start, end, words };
  }

  private partial(): StreamStep['partial'] | undefined {
    if (this.closed) return undefined;
    const result = this.recognizer.getResult(this.stream);
    const words = wordsOf(result, this.heard());
    const text = words.map((w) => w.word).join(' ');
    if (text === this.lastPartial) return undefined;
    this.lastPartial = text;
    if (words.length === 0) return undefined;
    return { start: words[0].start, end: round3(this.heard()), words: words.map((w) => w.word) };
  }
}
