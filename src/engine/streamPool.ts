// Live streams off the event loop, spread over the cores: a set of worker threads (engine/streamWorker.ts), each
// holding the incremental decoders of the stream channels placed on it (PocketSphinx, or a streaming sherpa-onnx
// model: the pool does not care which). A new channel goes to the worker with
// the fewest channels, and stays there (its decoder state lives in that thread). Apart from the batch pool
// (engine/pool.ts): a batch task decodes a minute of audio at once and would hold a live stream up that long.
//
// A PocketSphinx channel with partials and finals decoded again (phrases, rescored) is split over two decoders on
// two threads: one makes the partials (finals 'none'), one the finals (no partials: endpointer and final passes
// only), both fed every chunk. A final pass takes a phrase's batch decoding time (seconds for a long one under
// load), and on the partials' thread it held up the partials of every stream there that long (partial lag p95
// 4.3-5.9 s, README); on a thread of its own it only shares the cores. The two halves cut the audio into the same
// utterances (the same endpointer on the same audio), so a partial of an utterance whose final is out is dropped.
//
// Per channel at most one chunk is with its worker at a time; what arrives meanwhile waits here and goes as
// one chunk when the worker answers. So a worker's queue never holds two chunks of one stream: a stream with a
// backlog (a client sending faster than real time, a long utterance) takes one turn like every other stream on
// that worker, and its backlog is measured here (`pendingSamples`) for back-pressure.
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { concatPcm } from '../audio/concatPcm.js';
import type { VadParams } from '../audio/vad.js';
import type { Word } from '../transcript/types.js';
import type { EngineStream, StreamOptions } from './engine.js';
import { monotonic } from './speechBatches.js';
import type { PocketSphinxModel } from './pocketsphinx/decoder.js';
import { type Arrivals, fillShed, type FinalPass, shedSeconds, type StepFinal, type StreamStep } from './pocketsphinx/streamDecoder.js';
import { startWorker } from './pool.js';
import type { SherpaModelSpec } from './sherpa/modelFolder.js';

/** Which decoder a channel gets on its worker: the bundled engine's, or a streaming sherpa-onnx model's. */
export type StreamDecoderSpec =
  | { engine: 'pocketsphinx'; model: PocketSphinxModel; vad: VadParams; finals?: FinalPass; partials?: boolean; deadlineMs?: number; maxDelay?: number }
  | { engine: 'sherpa-onnx'; model: string; spec: SherpaModelSpec; vad: VadParams; align?: PocketSphinxModel; maxUtteranceSeconds?: number };

export type StreamRequest =
  | { op: 'open'; id: string; decoder: StreamDecoderSpec }
  | { op: 'audio'; id: string; samples: Int16Array; arrivals: Arrivals }
  | { op: 'finish'; id: string }
  | { op: 'close'; id: string }
  /** Lowers this worker thread's scheduling priority (Linux nice, per thread); no answer. */
  | { op: 'nice'; id: string; increment: number };

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

/** One channel of a live stream as the pool sees it: one decoder, or two (SplitChannel). */
export interface ChannelHandle {
  readonly pendingSamples: number;
  readonly closed: boolean;
  write(samples: Int16Array): void;
  finish(): Promise<StreamStep>;
  close(): void;
}

/** One channel on one worker's decoder. */
export class ChannelStream implements ChannelHandle {
  private queue: Int16Array[] = [];
  /** When each queued chunk was written: (sample count, wall-clock ms) pairs, as the decoder judges lateness by. */
  private arrivals: number[] = [];
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
    this.arrivals.push(samples.length, Date.now());
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
    this.arrivals = [];
    this.queued = 0;
    this.slot.streams.delete(this.id);
    this.slot.worker.postMessage({ op: 'close', id: this.id } satisfies StreamRequest);
  }

  private pump(): void {
    if (this.inFlight || this.done) return;
    if (this.queue.length > 0) {
      const chunk = this.queue.length === 1 ? this.queue[0] : concatPcm(this.queue, this.queued);
      const arrivals = this.arrivals;
      this.queue = [];
      this.arrivals = [];
      this.queued = 0;
      this.inFlight = true;
      const owned = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer;
      this.slot.worker.postMessage({ op: 'audio', id: this.id, samples: chunk, arrivals } satisfies StreamRequest, owned ? [chunk.buffer as ArrayBuffer] : []);
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

/**
 * A channel whose partials and finals are made on two workers (see the top): the finals half's updates pass as
 * they come; the partials half's partials pass unless their utterance's final is already out. A final with shed
 * stretches (pocketsphinx/streamDecoder.ts) gets the partials half's words of the same utterance there (both
 * halves cut the same utterances, so they share its start); it waits for them if that half is behind.
 */
class SplitChannel implements ChannelHandle {
  private readonly partials: ChannelStream;
  private readonly finals: ChannelStream;
  /** End of the latest final sent, and the finals half's heard seconds (what updates report). */
  private finalEnd = -1;
  private heard = 0;
  private failed = false;
  /** The partials half's words by utterance start, until the final of that utterance has taken them. */
  private readonly live = new Map<number, Word[]>();
  /** How far the partials half has heard, and whether it has finished. */
  private liveHeard = 0;
  private liveEnded = false;
  /** Finals half steps waiting for live words (in order). */
  private waiting: StreamStep[] = [];
  /** The open utterance's prefix finals so far (stablePrefix.ts): its partials show only the words after them. */
  private prefix: { utteranceStart: number; words: number; end: number } | undefined;

  constructor(open: (half: 'partials' | 'finals', callbacks: StreamCallbacks) => ChannelStream, private readonly callbacks: StreamCallbacks) {
    const onError = (error: Error) => this.fail(error);
    this.finals = open('finals', { onStep: (step) => this.onFinals(step), onError });
    this.partials = open('partials', {
      onStep: (step) => {
        this.onLive(step);
        if (step.partial && step.partial.start >= this.finalEnd) callbacks.onStep({ finals: [], partial: this.rest(step.partial), heardSeconds: this.heard, decodeSeconds: step.decodeSeconds });
      },
      onError,
    });
  }

  get pendingSamples(): number {
    return Math.max(this.partials.pendingSamples, this.finals.pendingSamples);
  }

  get closed(): boolean {
    return this.finals.closed;
  }

  write(samples: Int16Array): void {
    // Each half owns (and may transfer) what it is given.
    this.partials.write(samples.slice());
    this.finals.write(samples);
  }

  async finish(): Promise<StreamStep> {
    const [first, last] = await Promise.all([this.partials.finish(), this.finals.finish()]);
    this.onLive(first, true);
    return this.fill(last);
  }

  close(): void {
    this.partials.close();
    this.finals.close();
  }

  private onLive(step: StreamStep, ended = false): void {
    for (const f of step.liveFinals ?? []) this.live.set(f.start, f.words);
    this.liveHeard = Math.max(this.liveHeard, step.heardSeconds);
    if (ended) this.liveEnded = true;
    while (this.waiting.length > 0 && this.ready(this.waiting[0])) this.pass(this.fill(this.waiting.shift()!));
  }

  private onFinals(step: StreamStep): void {
    if (this.waiting.length > 0 || !this.ready(step)) {
      this.waiting.push(step);
      return;
    }
    this.pass(this.fill(step));
  }

  /**
   * Whether every shed final of the step has the partials half's words, or never will: that half has ended, or has
   * heard past the utterance's close (the step that closes an utterance carries its words) without ending the same
   * utterance. The halves' endpointers should never disagree; if they did, the final goes without those words
   * rather than holding every later final until the stream ends (the after-call job recognizes the audio anyway).
   */
  private ready(step: StreamStep): boolean {
    return step.finals.every((f) => !f.shed || this.liveStart(f.start) !== undefined || this.liveEnded || this.liveHeard >= f.end);
  }

  /** The partials half's utterance starting where a final's does (the same endpointer: equal, to rounding). */
  private liveStart(start: number): number | undefined {
    for (const s of this.live.keys()) if (Math.abs(s - start) < 0.05) return s;
    return undefined;
  }

  private fill(step: StreamStep): StreamStep {
    if (!step.finals.some((f) => f.shed)) return step;
    const finals = step.finals.map((f): StepFinal => {
      if (!f.shed) return f;
      const at = this.liveStart(f.start);
      const live = at === undefined ? [] : this.live.get(at)!;
      if (at !== undefined) this.live.delete(at);
      const words = fillShed(f.words, live, f.shed).filter((w) => w.start < f.end);
      return { start: f.start, end: f.end, words, shedSeconds: shedSeconds(f.shed) };
    });
    return { ...step, finals };
  }

  /**
   * A partial of an utterance part of which is final already: the words after the prefix finals' (by count: the
   * partials decoder's words are untimed), from where they ended.
   */
  private rest(partial: NonNullable<StreamStep['partial']>): NonNullable<StreamStep['partial']> {
    const prefix = this.prefix;
    if (!prefix || Math.abs(partial.start - prefix.utteranceStart) >= 0.05) return partial;
    return { start: prefix.end, end: partial.end, words: partial.words.slice(prefix.words) };
  }

  private pass(step: StreamStep): void {
    this.heard = step.heardSeconds;
    for (const f of step.finals) {
      // A prefix final leaves its utterance open: its partials still pass (the rest of them).
      if (f.prefix) {
        this.prefix = { ...f.prefix, end: f.end };
        continue;
      }
      this.prefix = undefined;
      this.finalEnd = Math.max(this.finalEnd, f.end);
    }
    // Live words of utterances already final are not needed any more.
    for (const start of this.live.keys()) if (start < this.finalEnd) this.live.delete(start);
    this.callbacks.onStep(step);
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.close();
    this.callbacks.onError(error);
  }
}

export function defaultStreamThreads(): number {
  const configured = Number(process.env.SCRUBLINE_STREAM_THREADS);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(1, os.availableParallelism());
}

/** Whether a channel's partials and finals go to two threads (SCRUBLINE_STREAM_SPLIT=0: one decoder, one thread). */
/**
 * Scheduling priority given up by the finals threads of split channels: when the cores are saturated, the kernel
 * runs the partials threads first (a partial is due within moments, a final's pass can wait for the pause).
 */
const FINALS_NICE = 5;

export function splitStreams(): boolean {
  return process.env.SCRUBLINE_STREAM_SPLIT !== '0';
}

export class StreamPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  /** Workers of the finals halves of split channels (as many as `size` at most). */
  private readonly finalSlots: Slot[] = [];

  constructor(
    size = defaultStreamThreads(),
    private readonly split = splitStreams(),
  ) {
    this.size = Math.max(1, Math.floor(size));
  }

  /** Opens a channel: one decoder on the least-loaded worker, or a split one (see the top). */
  open(decoder: StreamDecoderSpec, callbacks: StreamCallbacks): ChannelHandle {
    const finals = decoder.engine === 'pocketsphinx' ? (decoder.finals ?? 'phrases') : undefined;
    if (this.split && decoder.engine === 'pocketsphinx' && decoder.partials !== false && (finals === 'phrases' || finals === 'rescored')) {
      return new SplitChannel(
        (half, cb) =>
          half === 'partials'
          ? this.openOn(this.slots, { ...decoder, finals: 'none' }, cb)
          : this.openOn(this.finalSlots, { ...decoder, partials: false }, cb, FINALS_NICE),
        callbacks,
      );
    }
    // A finals-only decoder alone has no words to put in a shed stretch: its passes are never shed.
    const alone = decoder.engine === 'pocketsphinx' && decoder.partials === false ? { ...decoder, deadlineMs: Infinity } : decoder;
    return this.openOn(this.slots, alone, callbacks);
  }

  private openOn(slots: Slot[], decoder: StreamDecoderSpec, callbacks: StreamCallbacks, nice = 0): ChannelStream {
    const slot = this.pick(slots, nice);
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
    const slots = [...this.slots.splice(0), ...this.finalSlots.splice(0)];
    for (const slot of slots) for (const stream of [...slot.streams.values()]) stream.fail(new Error('the stream pool was closed'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private pick(slots: Slot[], nice: number): Slot {
    if (slots.length < this.size) {
      const idle = slots.find((s) => s.streams.size === 0);
      if (idle) return idle;
      return this.spawn(slots, nice);
    }
    return slots.reduce((best, s) => (s.streams.size < best.streams.size ? s : best));
  }

  private spawn(slots: Slot[], nice: number): Slot {
    const worker = startWorker('streamWorker');
    if (nice > 0) worker.postMessage({ op: 'nice', id: '', increment: nice } satisfies StreamRequest);
    const slot: Slot = { worker, streams: new Map(), held: [] };
    worker.unref();
    worker.on('message', (reply: StreamReply) => {
      if (reply.ok && reply.op === 'opened' && reply.heldModels) slot.held = reply.heldModels;
      slot.streams.get(reply.id)?.receive(reply);
      if (slot.streams.size === 0) worker.unref();
    });
    const lost = (error: Error) => {
      const index = slots.indexOf(slot);
      if (index >= 0) slots.splice(index, 1);
      for (const stream of [...slot.streams.values()]) stream.fail(error);
    };
    worker.on('error', (error) => lost(new Error(`a stream worker failed: ${error.message}`)));
    worker.on('exit', (code) => lost(new Error(`a stream worker stopped (exit code ${code})`)));
    slots.push(slot);
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
