// A process that runs jobs says so in the database every few seconds: its job slots and decoders, free and
// in use. Capacity figures (/asr/maxstreamscheck, /asr/status) are the sum over the processes whose heartbeat
// is fresh, whichever process answers; a process that stops cleanly removes its row, one that dies is left
// out once its heartbeat is stale.
import os from 'node:os';
import type { Logger } from 'pino';
import type { Store } from '../store/index.js';

/** How often a process reports (ms). */
export const HEARTBEAT_MS = 5000;
/** A heartbeat older than this (s) is a process gone: three missed beats. */
export const HEARTBEAT_STALE_SECONDS = Math.ceil((3 * HEARTBEAT_MS) / 1000);

export type ProcessRole = 'serve' | 'worker';

export interface ProcessLoad {
  jobSlots: number;
  jobsRunning: number;
  maxStreams: number;
  decoders: { size: number; busy: number; queued: number };
}

export class ProcessHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private role: ProcessRole | undefined;
  /** The beat being written: stop() waits for it, or it would write the row back after stop removed it. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: { store: Store; id: string; load: () => ProcessLoad; logger: Logger; intervalMs?: number },
  ) {}

  /** Whether this process reports itself as running jobs (its worker was started). */
  get active(): boolean {
    return this.role !== undefined;
  }

  /** Report now and every interval from now on. */
  async start(role: ProcessRole): Promise<void> {
    this.role = role;
    await this.beat();
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.beat(), this.options.intervalMs ?? HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Write the figures now (also after a change worth reporting at once). Never throws: a missed beat is logged. */
  beat(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  private async write(): Promise<void> {
    const role = this.role;
    if (!role) return;
    const load = this.options.load();
    try {
      await this.options.store.processes.beat({
        id: this.options.id,
        role,
        host: os.hostname(),
        pid: process.pid,
        job_slots: load.jobSlots,
        jobs_running: load.jobsRunning,
        max_streams: load.maxStreams,
        decoders: load.decoders.size,
        decoders_busy: load.decoders.busy,
        decoders_waiting: load.decoders.queued,
      });
      // Rows of processes killed without a word stop counting when stale; they are deleted much later.
      await this.options.store.processes.forgetOlderThan(HEARTBEAT_STALE_SECONDS * 100);
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, 'recording the process heartbeat failed');
    }
  }

  /** Stop reporting and remove this process's row: its capacity is gone at once. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    if (!this.role) return;
    this.role = undefined;
    await this.writing;
    await this.options.store.processes.remove(this.options.id).catch((error: unknown) => {
      this.options.logger.warn({ err: (error as Error).message }, 'removing the process heartbeat failed');
    });
  }
}
