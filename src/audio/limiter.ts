// Admission for work that costs a process per request (probing, measuring, unpacking uploads): at most
// `concurrency` run at once and at most `queue` wait for a turn. Past that, or after waiting too long, the
// request is refused at once with a retryable 503 (`BusyError`, answered with Retry-After): a busy machine is
// the service's state, never a reason to call a client's audio unusable.
import { ServiceError } from '../errors.js';

export interface LimiterOptions {
  /** What is limited, for messages ("probing uploads"). */
  name: string;
  /** How many run at once (at least 1). */
  concurrency: number;
  /** How many may wait for a turn (0: refuse as soon as all run). */
  queue: number;
  /** How long one may wait for a turn before it is refused (default 60 s). */
  maxWaitMs?: number;
  /** Seconds a refused client is told to wait before it tries again (default 2). */
  retryAfterSeconds?: number;
}

/** The service is at capacity for this kind of work: retryable, answered 503 with Retry-After. */
export class BusyError extends ServiceError {
  constructor(message: string, retryAfterSeconds: number) {
    super('unavailable', message, [], { reason: 'busy', retryable: true, retryAfter: retryAfterSeconds });
    this.name = 'BusyError';
  }
}

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

export class AdmissionLimiter {
  private active = 0;
  private readonly waiting: Waiter[] = [];
  readonly concurrency: number;
  readonly queue: number;
  private readonly maxWaitMs: number;
  private readonly retryAfterSeconds: number;

  constructor(private readonly options: LimiterOptions) {
    this.concurrency = Math.max(1, options.concurrency);
    this.queue = Math.max(0, options.queue);
    this.maxWaitMs = options.maxWaitMs ?? 60_000;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 2;
  }

  /** Work running now. */
  get running(): number {
    return this.active;
  }

  /** Work waiting for a turn now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` when a turn is free; throws BusyError when none is and the queue is full or the wait too long. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private busy(why: string): BusyError {
    return new BusyError(`The service is busy ${this.options.name} (${why}); try again in ${this.retryAfterSeconds} s.`, this.retryAfterSeconds);
  }

  private acquire(): Promise<void> {
    if (this.active < this.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.queue) return Promise.reject(this.busy(`${this.active} running, ${this.waiting.length} waiting`));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        // The turn is handed over by release(): `active` stays counted for it.
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(this.busy(`no turn within ${Math.round(this.maxWaitMs / 1000)} s`));
        }, this.maxWaitMs),
      };
      waiter.timer.unref?.();
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next.start();
    else this.active--;
  }
}
