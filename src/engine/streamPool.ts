// Live streams off the event loop, spread over the cores: a set of worker threads (engine/streamWorker.ts), each
// holding the incremental decoders of the stream channels placed on it (PocketSphinx, or a streaming sherpa-onnx
// model: the pool does not care which). A new channel goes to the worker with
// the fewest channels, and stays there (its decoder state lives in that thread). Apart from the batch pool
// (engine/pool.ts): a batch task decodes a minute of audio at once and would hold a live stream up that long.
//
// Per channel at most one chunk is with its worker at a time; what arrives meanwhile waits here and goes as
// one chunk when the worker answers. So a worker's queue never holds two chunks of one stream: a stream with a
// backlog (a client sending faster than real time, a long utterance) takes one turn like every other stream on
// that worker, and its backlog is measured here (`pendingSamples`) for back-pressure.
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { VadParams } from '../audio/vad.js';
import type { Word } from '../transcript/types.js';
import type { EngineStream, StreamOptions } from './engine.js';
import { monotonic } from './speechBatches.js';
import type { PocketSphinxModel } from './pocketsphinx/decoder.js';
import type { FinalPass, StreamStep } from './pocketsphinx/streamDecoder.js';
import { startWorker } from './pool.js';
import type { SherpaModelSpec } from './sherpa/modelFolder.js';

/** Which decoder a channel gets on its worker: the bundled engine's, or a streaming sherpa-onnx model's. */
export type StreamDecoderSpec =
  | { engine: 'pocketsphinx'; model: PocketSphinxModel; vad: VadParams; finals?: FinalPass; partials?: boolean }
  | { engine: 'sherpa-onnx'; model: string; spec: SherpaModelSpec; vad: VadParams; align?: PocketSphinxModel; maxUtteranceSeconds?: number };

export type StreamRequest =
  | { op: 'open'; id: string; decoder: StreamDecoderSpec }
  | { op: 'audio'; id: string; samples: Int16Array }
  | { op: 'finish'; id: string }
  | { op: 'close'; id: string };

export type StreamReply =
  | { id: string; ok: true; op: 'opened'; heldModels?: string[] }
  | { id: string; ok: true; op: 'step' | 'finished'; step: StreamStep }
  | { id: string; ok: false; error: { message: string; permanent: boolean } };

export interface StreamCallbacks {
  onStep(step: StreamStep): void;
  onError(error: Error): void;
}

interface Slot {
  worker: Worker;
  streams: Map<string, ChannelStream>;
  /** sherpa-onnx models the worker holds loaded (as of its latest 'opened' reply). */
  held: string[];
}

let nextId = 0;

/** One channel of a live stream as the pool sees it. */
export class ChannelStream {
  private queue: Int16Array[] = [];
  private queued = 0;
  private inFlight = false;
  private finishing: { resolve: (step: StreamStep) => void; reject: (error: Error) => void } | undefined;
  private done = false;

  constructor(
    readonly id: string,
    private readonly slot: Slot,
    private readonly callbacks: StreamCallbacks,
  ) {}

  /** Samples waiting for the worker (not counting the chunk it is decoding). */
  get pendingSamples(): number {
    return this.queued;
  }

  get closed(): boolean {
    return this.done;
  }

  write(samples: Int16Array): void {
    if (this.done || this.finishing || samples.length === 0) return;
    this.queue.push(samples);
    this.queued += samples.length;
    this.pump();
  }

  /** Decode what is queued, end the open utterance, free the decoder: the last step. */
  finish(): Promise<StreamStep> {
    if (this.done) return Promise.reject(new Error('the stream is closed'));
    return new Promise((resolve, reject) => {
      this.finishing = { resolve, reject };
      this.pump();
    });
  }

  /** Drop the stream at once (its decoder is freed; nothing more is reported). */
  close(): void {
    if (this.done) return;
    this.done = true;
    this.queue = [];
    this.queued = 0;
    this.slot.streams.delete(this.id);
    this.slot.worker.postMessage({ op: 'close', id: this.id } satisfies StreamRequest);
  }

  private pump(): void {
    if (this.inFlight || this.done) return;
    if (this.queue.length > 0) {
      const chunk = this.queue.length === 1 ? this.queue[0] : concat(this.queue, this.queued);
      this.queue = [];
      this.queued = 0;
      this.inFlight = true;
      const owned = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer;
      this.slot.worker.postMessage({ op: 'audio', id: this.id, samples: chunk } satisfies StreamRequest, owned ? [chunk.buffer as ArrayBuffer] : []);
      return;
    }
    if (this.finishing) {
      this.inFlight = true;
      this.slot.worker.postMessage({ op: 'finish', id: this.id } satisfies StreamRequest);
    }
  }

  /** The worker's answer to this stream's chunk, finish or open. */
  receive(reply: StreamReply): void {
    if (this.done) return;
    if (!reply.ok) return this.fail(Object.assign(new Error(reply.error.message), { permanent: reply.error.permanent }));
    if (reply.op === 'opened') return;
    this.inFlight = false;
    if (reply.op === 'finished') {
      this.done = true;
      this.slot.streams.delete(this.id);
      this.finishing?.resolve(reply.step);
      return;
    }
    try {
      this.callbacks.onStep(reply.step);
    } finally {
      this.pump();
    }
  }

  fail(error: Error): void {
    if (this.done) return;
    this.done = true;
    this.slot.streams.delete(this.id);
    this.finishing?.reject(error);
    this.callbacks.onError(error);
  }
}

function concat(parts: Int16Array[], total: number): Int16Array {
  const out = new Int16Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function defaultStreamThreads(): number {
  const configured = Number(process.env.SCRUBLINE_STREAM_THREADS);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(1, os.availableParallelism());
}

export class StreamPool {
  readonly size: number;
  private readonly slots: Slot[] = [];

  constructor(size = defaultStreamThreads()) {
    this.size = Math.max(1, Math.floor(size));
  }

  /** Opens a decoder for one channel on the least-loaded worker. */
  open(decoder: StreamDecoderSpec, callbacks: StreamCallbacks): ChannelStream {
    const slot = this.pick();
    const id = `s${++nextId}`;
    const stream = new ChannelStream(id, slot, callbacks);
    slot.streams.set(id, stream);
    slot.worker.ref();
    slot.worker.postMessage({ op: 'open', id, decoder } satisfies StreamRequest);
    return stream;
  }

  /** The sherpa-onnx models each live worker holds (one list per worker). */
  heldModels(): string[][] {
    return this.slots.map((s) => s.held);
  }

  stats(): { threads: number; workers: number; channels: number } {
    return { threads: this.size, workers: this.slots.length, channels: this.slots.reduce((n, s) => n + s.streams.size, 0) };
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const slot of slots) for (const stream of [...slot.streams.values()]) stream.fail(new Error('the stream pool was closed'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private pick(): Slot {
    if (this.slots.length < this.size) {
      const idle = this.slots.find((s) => s.streams.size === 0);
      if (idle) return idle;
      return this.spawn();
    }
    return this.slots.reduce((best, s) => (s.streams.size < best.streams.size ? s : best));
  }

  private spawn(): Slot {
    const worker = startWorker('streamWorker');
    const slot: Slot = { worker, streams: new Map(), held: [] };
    worker.unref();
    worker.on('message', (reply: StreamReply) => {
      if (reply.ok && reply.op === 'opened' && reply.heldModels) slot.held = reply.heldModels;
      slot.streams.get(reply.id)?.receive(reply);
      if (slot.streams.size === 0) worker.unref();
    });
    const lost = (error: Error) => {
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      for (const stream of [...slot.streams.values()]) stream.fail(error);
    };
    worker.on('error', (error) => lost(new Error(`a stream worker failed: ${error.message}`)));
    worker.on('exit', (code) => lost(new Error(`a stream worker stopped (exit code ${code})`)));
    this.slots.push(slot);
    return slot;
  }
}

/**
 * One channel of a live call as the Engine interface gives it, on a pool decoder of any engine: updates passed
 * on, finals collected for the channel's result, the stream dropped when the caller's signal aborts.
 */
export function engineStream(pool: StreamPool, decoder: StreamDecoderSpec, channel: number, sampleRate: number, options: StreamOptions): EngineStream {
  const words: Word[] = [];
  const segments: { start: number; end: number }[] = [];
  const update = (step: StreamStep) => {
    for (const final of step.finals) {
      words.push(...final.words);
      segments.push({ start: final.start, end: final.end });
    }
    options.onUpdate({ channel, finals: step.finals, ...(step.partial && { partial: step.partial }), heardSeconds: step.heardSeconds });
  };
  const handle = pool.open(decoder, { onStep: update, onError: options.onError });
  const abort = () => handle.close();
  options.signal?.addEventListener('abort', abort, { once: true });
  return {
    channel,
    write: (samples) => handle.write(samples),
    pendingSeconds: () => handle.pendingSamples / sampleRate,
    finish: async () => {
      try {
        update(await handle.finish());
      } finally {
        options.signal?.removeEventListener('abort', abort);
      }
      return { channel, words: monotonic(words), segments };
    },
    abort: () => {
      options.signal?.removeEventListener('abort', abort);
      abort();
    },
  };
}

let shared: StreamPool | undefined;

/** The process's stream pool if one was made (asking does not make one). */
export function existingSharedStreamPool(): StreamPool | undefined {
  return shared;
}

/** The process's stream pool (made on first use). */
export function sharedStreamPool(): StreamPool {
  shared ??= new StreamPool();
  return shared;
}

export async function closeSharedStreamPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
