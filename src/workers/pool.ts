// The worker threads redaction runs on (piscina): started on first use, up to `threads` of them, each running
// workers/worker.ts. Idle workers do not keep the process alive, and leave after IDLE_MS. One pool per process,
// shared by every path (post-call, real-call, jobs); services.close() closes it, and a later task starts a new one.
//
// Every task is bounded (workLimits.ts): a task waits here for a free worker (so the pool itself never queues,
// and its time limit counts its run, not its wait), then runs for at most TASK_MS; past it, its worker is
// stopped (and replaced by the next task) and the task fails with TaskTimeoutError. A worker's heap is capped at
// WORKER_HEAP_MB (past it: ERR_WORKER_OUT_OF_MEMORY). Closing gives running tasks CLOSE_GRACE_MS, then stops
// their workers: their tasks, and those still waiting, fail with PoolClosedError (left to be tried again).
//
// The worker file resolves next to this one: worker.ts under tsx (tests, development), where the worker gets
// tsx's loader through its execArgv, and dist/workers/worker.js once compiled.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { CLOSE_GRACE_MS, limit, TASK_MS, WORKER_HEAP_MB } from '../workLimits.js';

/** An idle worker stays this long (ms) before it is stopped: starting one costs more than a task. */
const IDLE_MS = 60_000;
/**
 * Workers run at a lower scheduling priority than the event loop (Linux nice, per thread, through piscina's
 * optional @napi-rs/nice; without it, at the same priority): busy redaction yields the CPU to the requests.
 */
const NICE = 10;

/**
 * Most workers at once: SCRUBLINE_REDACTORS, else one core fewer than the machine has (one is left to the event
 * loop, which answers every other request), at least 1 and at most 4 (redaction shares the cores with decoding).
 */
export function defaultRedactorThreads(): number {
  const configured = Number(process.env.SCRUBLINE_REDACTORS);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(1, Math.min(4, os.availableParallelism() - 1));
}

function workerOptions(): { filename: string; execArgv?: string[] } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { filename: fileURLToPath(new URL('./worker.js', here)) };
  // A TypeScript worker needs tsx's loader: inherited with `--import tsx`, added when this process got it otherwise.
  const hasTsx = process.execArgv.some((arg) => arg.includes('tsx'));
  return {
    filename: fileURLToPath(new URL('./worker.ts', here)),
    ...(!hasTsx && { execArgv: [...process.execArgv, '--import', import.meta.resolve('tsx')] }),
  };
}

/** A task that ran past its time limit (its worker was stopped). */
export class TaskTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(`the task ran past its time limit of ${limitMs} ms`);
    this.name = 'TaskTimeoutError';
  }
}

/** A task cut short, or never started, because the pool was closed (the service is stopping). */
export class PoolClosedError extends Error {
  constructor() {
    super('the redaction workers were stopped (the service is stopping)');
    this.name = 'PoolClosedError';
  }
}

interface Pool {
  piscina: Piscina;
  threads: number;
  running: number;
  /** Tasks waiting for a free worker, in order. */
  waiting: { start: () => void; refuse: (error: Error) => void }[];
  closed: boolean;
}

let shared: Pool | undefined;
/** Set when the process is stopping (closeRedactionPool with refuseNew): no task starts a new pool. */
let refusing = false;

/** The process's redaction pool (created on first use). */
function sharedPool(): Pool {
  if (!shared) {
    const threads = defaultRedactorThreads();
    const piscina = new Piscina({
      ...workerOptions(),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: IDLE_MS,
      niceIncrement: NICE,
      closeTimeout: limit(CLOSE_GRACE_MS),
      resourceLimits: { maxOldGenerationSizeMb: limit(WORKER_HEAP_MB) },
    });
    // The pool's own 'error' events (a worker answering a task already failed when the pool closed under it, a
    // close that timed out) would otherwise end the process. The tasks concerned have already been settled.
    // Only the first words are told: the rest quotes the task's result.
    piscina.on('error', (error: Error) => process.emitWarning(`redaction pool: ${error.message.split(':')[0]}`));
    shared = { piscina, threads, running: 0, waiting: [], closed: false };
  }
  return shared;
}

/** The process's piscina (created on first use): its counters, for tests and figures. */
export function redactionPool(): Piscina {
  return sharedPool().piscina;
}

/**
 * Runs one task on a worker: waits for a free one, then at most TASK_MS. Rejects with TaskTimeoutError,
 * PoolClosedError, or what the worker died of (ERR_WORKER_OUT_OF_MEMORY).
 */
export async function runOnWorker<R>(task: unknown, transferList?: ArrayBuffer[]): Promise<R> {
  if (refusing) throw new PoolClosedError();
  const pool = sharedPool();
  if (pool.closed) throw new PoolClosedError();
  // A free worker is taken; else this task waits until a finishing one hands its worker over.
  if (pool.running < pool.threads) pool.running++;
  else await new Promise<void>((start, refuse) => pool.waiting.push({ start, refuse }));
  const ms = limit(TASK_MS);
  const signal = AbortSignal.timeout(ms);
  try {
    return (await pool.piscina.run(task, { signal, ...(transferList && { transferList }) })) as R;
  } catch (error) {
    if (pool.closed) throw new PoolClosedError();
    if (signal.aborted) throw new TaskTimeoutError(ms);
    throw error;
  } finally {
    const next = pool.waiting.shift();
    if (next) next.start();
    else pool.running--;
  }
}

/**
 * Gives running tasks CLOSE_GRACE_MS to finish, then stops every worker; waiting tasks are refused at once.
 * `refuseNew` (the process is stopping: SIGTERM): tasks asked for from now on are refused too, instead of
 * starting a new pool that the stop would wait on; openRedactionPool() lifts it (a new service in this process).
 */
export async function closeRedactionPool(options: { refuseNew?: boolean } = {}): Promise<void> {
  if (options.refuseNew) refusing = true;
  const pool = shared;
  shared = undefined;
  if (!pool) return;
  pool.closed = true;
  for (const waiter of pool.waiting.splice(0)) waiter.refuse(new PoolClosedError());
  await pool.piscina.close();
}

/** Tasks may start a pool again (createServices: a service starting in this process after another stopped). */
export function openRedactionPool(): void {
  refusing = false;
}
