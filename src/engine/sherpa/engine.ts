// The sherpa-onnx engine: models operators bring (Whisper, Zipformer and Parakeet transducers, NeMo CTC,
// Moonshine, Paraformer, SenseVoice) behind the same Engine interface as the bundled one, so redaction,
// analytics, jobs and notifications work unchanged at their accuracy. A channel is cut by the same
// voice-activity step (speechBatches.ts) and decoded on the same worker pool; each worker loads a model once and
// keeps it for every later task. Words get times from the model's tokens, or — for models that give none —
// from alignment with the bundled acoustic model (pocketsphinx/align.ts), so audio redaction always has spans.
import { vadParamsFrom } from '../../audio/vad.js';
import type { Word } from '../../transcript/types.js';
import { type ChannelAudio, type ChannelResult, type Engine, type EngineStream, type RecognizeOptions, reportingProgress, type StreamOptions } from '../engine.js';
import { listModels, WIDEBAND_MODEL, type ModelInfo } from '../models.js';
import { ModelNotInstalled } from '../pocketsphinx/engine.js';
import { sharedPool, type DecoderPool } from '../pool.js';
import { monotonic, speechBatches } from '../speechBatches.js';
import { engineStream, existingSharedStreamPool, sharedStreamPool, type StreamPool } from '../streamPool.js';
import { isOnlineFamily, type SherpaModelSpec } from './modelFolder.js';
import { SHERPA_SAMPLE_RATE } from './recognizerConfig.js';

/** Longest stretch decoded as one unit (s): Whisper sees at most 30 s at a time; the rest are not limited. */
export const MAX_UNIT_SECONDS = { whisper: 28, other: 20 };
const BATCH_SECONDS = 60;

export interface SherpaChannelStats {
  cpuSeconds: number;
  tasks: number;
  /** Workers that loaded the model for this channel (0 when every worker already held it). */
  loads: number;
  alignedWords: number;
  spreadUnits: number;
}

export class SherpaOnnxEngine implements Engine {
  readonly name = 'sherpa-onnx';
  private readonly ownPool?: DecoderPool;
  /** The models each pool worker holds (from its latest reply): what /asr/sysinfo accounts for. */
  private readonly held = new Map<number, string[]>();

  private readonly ownStreamPool?: StreamPool;

  constructor(options: { pool?: DecoderPool; streamPool?: StreamPool } = {}) {
    this.ownPool = options.pool;
    this.ownStreamPool = options.streamPool;
  }

  /** The pool given, else the process's shared one as it is now (it may have been closed and made again). */
  private get pool(): DecoderPool {
    return this.ownPool ?? sharedPool();
  }

  models(): ModelInfo[] {
    return listModels().filter((m) => m.engine === this.name);
  }

  sampleRate(model: string): number {
    this.resolve(model);
    return SHERPA_SAMPLE_RATE;
  }

  resolve(model: string): SherpaModelSpec {
    const info = this.models().find((m) => m.name === model);
    if (!info) throw new ModelNotInstalled(`Unknown model "${model}" for the ${this.name} engine (known: ${this.models().map((m) => m.name).join(', ') || 'none added'})`);
    if (!info.installed || !info.sherpa) throw new ModelNotInstalled(`Model ${model} is not usable: ${info.reason ?? 'files missing'}`);
    return info.sherpa;
  }

  /** How many pool and stream workers hold each model now. */
  loadedCopies(): Record<string, number> {
    // A worker that died (or a pool closed and made again) took its models with it.
    const alive = new Set(this.pool.workerIds());
    for (const id of this.held.keys()) if (!alive.has(id)) this.held.delete(id);
    const copies: Record<string, number> = {};
    // Stream workers hold their own copies (live streams on the model, streaming or by utterance).
    const streamWorkers = (this.ownStreamPool ?? existingSharedStreamPool())?.heldModels() ?? [];
    for (const models of [...this.held.values(), ...streamWorkers]) for (const m of models) copies[m] = (copies[m] ?? 0) + 1;
    return copies;
  }

  async recognize(audio: ChannelAudio, options: RecognizeOptions): Promise<ChannelResult & { stats: SherpaChannelStats }> {
    const spec = this.resolve(options.model);
    if (audio.sampleRate !== SHERPA_SAMPLE_RATE) throw new Error(`${options.model} needs ${SHERPA_SAMPLE_RATE} Hz PCM, got ${audio.sampleRate} Hz`);
    const align = spec.tokenTimestamps ? undefined : alignmentModel();
    const { segments, batches } = speechBatches(audio.samples, audio.sampleRate, options.params as Record<string, unknown>, {
      maxUnitSeconds: spec.family === 'whisper' ? MAX_UNIT_SECONDS.whisper : MAX_UNIT_SECONDS.other,
      batchSeconds: BATCH_SECONDS,
    });
    const results = await Promise.all(
      reportingProgress(batches.map((b) => this.pool.run({ kind: 'sherpa', model: options.model, spec, ...b, ...(align && { align }) }, { signal: options.signal })), options.onProgress),
    );
    for (const r of results) if (r.workerId !== undefined && r.heldModels) this.held.set(r.workerId, r.heldModels);
    const words: Word[] = results.flatMap((r) => r.words);
    return {
      channel: audio.channel,
      words: monotonic(words),
      segments,
      stats: {
        cpuSeconds: results.reduce((s, r) => s + r.initSeconds + r.decodeSeconds, 0),
        tasks: results.length,
        loads: results.filter((r) => r.initSeconds > 0).length,
        alignedWords: results.reduce((s, r) => s + (r.alignedWords ?? 0), 0),
        spreadUnits: results.reduce((s, r) => s + (r.spreadUnits ?? 0), 0),
      },
    };
  }

  whyNotStreaming(model: string): string | undefined {
    const spec = this.resolve(model);
    // An offline model streams by utterance (segmentStream.ts); its words need times, from its tokens or alignment.
    if (!isOnlineFamily(spec.family) && !spec.tokenTimestamps && !alignmentModel()) {
      return `Model ${model} (${spec.family}) gives no word times and the bundled engine that would align them is not installed: it cannot serve a live stream.`;
    }
    return undefined;
  }

  /**
   * A live channel on a stream worker. A streaming (online) model decodes chunk by chunk (sherpa/online.ts), its
   * endpoint rules ending utterances at the engine's uttmaxsilence and uttmaxtime; an offline one decodes each
   * utterance the energy endpointer cuts, partials by re-decoding the growing one (sherpa/segmentStream.ts).
   */
  stream(channel: number, options: StreamOptions): EngineStream {
    const spec = this.resolve(options.model);
    const why = this.whyNotStreaming(options.model);
    if (why) throw Object.assign(new Error(why), { permanent: true });
    const vad = vadParamsFrom(options.params as Record<string, unknown>);
    const align = spec.tokenTimestamps ? undefined : alignmentModel();
    const decoder = {
      engine: 'sherpa-onnx' as const,
      model: options.model,
      spec,
      vad,
      ...(align && { align }),
      maxUtteranceSeconds: spec.family === 'whisper' ? MAX_UNIT_SECONDS.whisper : MAX_UNIT_SECONDS.other,
    };
    return engineStream(this.ownStreamPool ?? sharedStreamPool(), decoder, channel, SHERPA_SAMPLE_RATE, options);
  }

  async close(): Promise<void> {
    // The shared pool outlives an engine.
  }
}

export interface LoadedModelMemory {
  model: string;
  /** Pool workers holding a copy. */
  copies: number;
  /** Resident memory of one copy (measured by the load check when the model was added). */
  bytesEach: number;
  bytes: number;
}

/** Memory the loaded sherpa-onnx models hold, and what one more load of the largest installed one would take. */
export function modelMemory(engine: SherpaOnnxEngine): { loaded: LoadedModelMemory[]; loadedBytes: number; largestModelBytes: number } {
  const models = engine.models();
  const copies = engine.loadedCopies();
  const loaded = models
    .filter((m) => (copies[m.name] ?? 0) > 0)
    .map((m) => ({ model: m.name, copies: copies[m.name], bytesEach: m.memoryBytes ?? 0, bytes: copies[m.name] * (m.memoryBytes ?? 0) }));
  return {
    loaded,
    loadedBytes: loaded.reduce((s, m) => s + m.bytes, 0),
    largestModelBytes: models.filter((m) => m.installed).reduce((max, m) => Math.max(max, m.memoryBytes ?? 0), 0),
  };
}

/** The bundled wideband model's files, for aligning words of models without token times (undefined if absent). */
function alignmentModel() {
  const wideband = listModels().find((m) => m.name === WIDEBAND_MODEL);
  return wideband?.installed && wideband.files ? { ...wideband.files, sampleRate: wideband.sampleRate } : undefined;
}
