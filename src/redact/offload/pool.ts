// The worker threads redaction runs on (piscina): started on first use, up to `threads` of them, each running
// offload/worker.ts. Idle workers do not keep the process alive, and leave after IDLE_MS. One pool per process,
// shared by every path (post-call, real-call, jobs); services.close() closes it, and a later task starts a new one.
//
// The worker file resolves next to this one: worker.ts under tsx (tests, development), where the worker gets
// tsx's loader through its execArgv, and dist/redact/offload/worker.js once compiled.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

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

let shared: Piscina | undefined;

/** The process's redaction pool (created on first use). */
export function redactionPool(): Piscina {
  if (!shared) {
    shared = new Piscina({ ...workerOptions(), minThreads: 0, maxThreads: defaultRedactorThreads(), idleTimeout: IDLE_MS, niceIncrement: NICE });
    // The pool's own 'error' events (a worker answering a task already failed when the pool closed under it, a
    // close that timed out) would otherwise end the process. The tasks concerned have already been settled.
    // Only the first words are told: the rest quotes the task's result.
    shared.on('error', (error: Error) => process.emitWarning(`redaction pool: ${error.message.split(':')[0]}`));
  }
  return shared;
}

/** Lets the pool's running and queued tasks finish, then stops its workers. */
export async function closeRedactionPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
