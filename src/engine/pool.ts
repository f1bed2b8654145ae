// Decoding off the event loop, spread over the cores: a pool of worker threads, each running decodes through the
// C library (engine/poolWorker.ts). The main thread only posts PCM (transferred, not copied) and receives words;
// it never calls the FFI. Workers start on demand up to `size` (default: os.availableParallelism(), or
// SCRUBLINE_DECODERS), take tasks first come first served, and are replaced when one dies. Idle workers do not
// keep the process alive.
//
// The worker file resolves next to this one: src/engine/poolWorker.ts under tsx (tests, development), where the
// worker registers tsx's loader first, and dist/engine/poolWorker.js once compiled.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Word } from '../transcript/types.js';
import type { PocketSphinxModel } from './pocketsphinx/decoder.js';
import type { SherpaModelSpec } from './sherpa/modelFolder.js';

/** A decode of one stretch of one channel: `samples` start at `offsetSeconds` of the channel. */
export interface PocketSphinxTask {
  kind: 'pocketsphinx';
  model: PocketSphinxModel;
  samples: Int16Array;
  /** Stretches to recognize, in seconds from the start of `samples`. */
  units: { start: number; end: number }[];
  /** Added to every word time (where `samples` begin in the channel). */
  offsetSeconds: number;
}

/** A decode through sherpa-onnx: the model's recognizer is loaded once per worker and kept. */
export interface SherpaTask {
  kind: 'sherpa';
  /** `language:name` (what the worker reports holding). */
  model: string;
  spec: SherpaModelSpec;
  samples: Int16Array;
  units: { start: number; end: number }[];
  offsetSeconds: number;
  /** The bundled model that aligns words when the model gives no token times. */
  align?: PocketSphinxModel;
}

export type PoolTask = PocketSphinxTask | SherpaTask;

export interface PoolResult {
  words: Word[];
  initSeconds: number;
  decodeSeconds: number;
  /** Peak resident memory of the process as the worker saw it after the task (bytes). */
  rssBytes: number;
  /** The worker thread that ran the task (a sherpa-onnx model stays loaded there). */
  workerId?: number;
  /** sherpa-onnx tasks: the models the worker holds loaded after the task. */
  heldModels?: string[];
  /** sherpa-onnx tasks: words timed by alignment, and stretches whose words were spread by length. */
  alignedWords?: number;
  spreadUnits?: number;
}

export interface PoolStats {
  size: number;
  workers: number;
  busy: number;
  queued: number;
  completed: number;
  failed: number;
}

export interface PoolOptions {
  /** Most workers at once (default: SCRUBLINE_DECODERS or os.availableParallelism()). */
  size?: number;
}

interface Job {
  task: PoolTask;
  resolve: (result: PoolResult) => void;
  reject: (error: Error) => void;
}

export interface RunOptions {
  /**
   * Drops the task: one still queued never runs; a running one's result is discarded (a decode in the C
   * library cannot be interrupted; the worker takes its next task when it ends). Rejects with the reason.
   */
  signal?: AbortSignal;
}

interface Slot {
  worker: Worker;
  job?: Job;
}

export type WorkerReply =
  | { ok: true; result: PoolResult }
  | { ok: false; error: { name: string; message: string; stack?: string; permanent: boolean } };

export function defaultPoolSize(): number {
  const configured = Number(process.env.SCRUBLINE_DECODERS);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(1, os.availableParallelism());
}

/**
 * Starts a pool worker (`file`: poolWorker, or streamWorker for live streams), from compiled dist/ (poolWorker.js) or from TypeScript source under tsx (poolWorker.ts).
 * Node 20 does not apply `--import tsx` from a worker's execArgv before loading its entry file, so a source
 * worker is started from a two-line bootstrap that registers tsx's loader and then imports the file.
 */
export function startWorker(file = 'poolWorker'): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(fileURLToPath(new URL(`./${file}.js`, here)));
  const entry = new URL(`./${file}.ts`, here).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

export class DecoderPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private completed = 0;
  private failed = 0;
  private closed = false;

  constructor(options: PoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? defaultPoolSize()));
  }

  /** Runs a task on a worker; its PCM buffer is transferred (the caller's array becomes empty). */
  run(task: PoolTask, options: RunOptions = {}): Promise<PoolResult> {
    if (this.closed) return Promise.reject(new Error('the decoder pool is closed'));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<PoolResult>((resolve, reject) => {
      let onAbort: (() => void) | undefined;
      const done = () => signal?.removeEventListener('abort', onAbort!);
      const job: Job = {
        task,
        resolve: (result) => (done(), resolve(result)),
        reject: (error) => (done(), reject(error)),
      };
      if (signal) {
        onAbort = () => {
          const queued = this.queue.indexOf(job);
          if (queued >= 0) this.queue.splice(queued, 1);
          // Running: the slot stays busy until the worker answers; the answer then goes nowhere.
          job.resolve = () => {};
          job.reject = () => {};
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Thread ids of the workers alive now. */
  workerIds(): number[] {
    return this.slots.map((s) => s.worker.threadId);
  }

  stats(): PoolStats {
    return {
      size: this.size,
      workers: this.slots.length,
      busy: this.slots.filter((s) => s.job).length,
      queued: this.queue.length,
      completed: this.completed,
      failed: this.failed,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the decoder pool was closed'));
    // An idle worker frees its kept decoders first: C memory outlives a terminated thread (~100 MB a decoder).
    await Promise.all(this.slots.splice(0).map(async (slot) => {
      if (!slot.job) await release(slot.worker);
      await slot.worker.terminate();
    }));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
      }
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.ref();
      const { samples } = job.task;
      // Transfer the PCM when it owns its whole buffer; a view into a larger buffer is copied (structured clone).
      const transfer = samples.byteOffset === 0 && samples.byteLength === samples.buffer.byteLength && samples.buffer instanceof ArrayBuffer ? [samples.buffer] : [];
      slot.worker.postMessage(job.task, transfer);
    }
  }

  private spawn(): Slot {
    const worker = startWorker();
    const slot: Slot = { worker };
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const job = slot.job;
      slot.job = undefined;
      worker.unref();
      if (job) {
        if (reply.ok) {
          this.completed++;
          job.resolve(reply.result);
        } else {
          this.failed++;
          // `permanent` (a missing model file, no library) tells the job worker not to retry.
          const error = Object.assign(new Error(reply.error.message), { permanent: reply.error.permanent });
          error.name = reply.error.name;
          if (reply.error.stack) error.stack = reply.error.stack;
          job.reject(error);
        }
      }
      this.dispatch();
    });
    const lost = (error: Error) => {
      const index = this.slots.indexOf(slot);
      if (index < 0) return; // already handled (error then exit)
      this.slots.splice(index, 1);
      if (slot.job) {
        this.failed++;
        slot.job.reject(error);
        slot.job = undefined;
      }
      if (!this.closed) this.dispatch();
    };
    worker.on('error', (error) => lost(new Error(`a decoder worker failed: ${error.message}`)));
    worker.on('exit', (code) => lost(new Error(`a decoder worker stopped (exit code ${code})`)));
    this.slots.push(slot);
    return slot;
  }
}

/** Asks an idle worker to free what it keeps loaded; answers when it has (or after 2 s, or if it is gone). */
function release(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      worker.off('message', done);
      worker.off('exit', done);
      resolve();
    };
    const timer = setTimeout(done, 2000);
    worker.on('message', done);
    worker.on('exit', done);
    worker.postMessage({ kind: 'release' });
  });
}

let shared: DecoderPool | undefined;

/** The process's pool (created on first use). */
export function sharedPool(): DecoderPool {
  shared ??= new DecoderPool();
  return shared;
}

export async function closeSharedPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
