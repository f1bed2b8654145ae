// The notification outbox. A job's terminal event is written as a delivery row in the same transaction as the
// job's final state (enqueue), and a dispatcher loop in every worker process sends due rows: signed with
// Standard Webhooks headers, the caller's auth headers opened from their sealed form only for the request,
// retried by the backoff schedule, every attempt kept in the row's log. Delivery is at least once: a process
// killed mid-send leaves its claim to expire, and the row is sent again, with the same webhook-id, by
// whichever dispatcher claims it next; receivers de-duplicate by that id.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { maskHeaderLine } from '../../security/credentials.js';
import type { SecretBox } from '../../security/secretBox.js';
import { type DeliveryAttempt, DeliveryStore, type DeliveryStatus, parseLog } from '../../store/deliveries.js';
import type { DeliveryRow, Tables } from '../../store/tables.js';
import { VERSION } from '../../version.js';
import { type AttemptOutcome, type BackoffOptions, decide, type Decision, DEFAULT_SCHEDULE_MS, maxAttempts } from './backoff.js';
import { secretKey, signatureHeaders } from './signing.js';
import { checkMethod, checkUrl, loggableUrl, maskedUrl, type NotificationMethod, NotificationTargetError, parseHeaderLine } from './target.js';
import { PUBLIC_ONLY, TargetNotAllowedError, type TargetPolicy } from './targetPolicy.js';
import { type Resolve, sendRequest } from './transport.js';

export interface NotificationOutboxOptions {
  db: Kysely<Tables>;
  box: SecretBox;
  /** The signing secret, `whsec_<base64>`. */
  secret: string;
  /**
   * The signing secrets of a job's deliveries when they are not `secret` (a project's own, set with set-parameter
   * `webhookSecrets`; two during a rotation, each giving a signature). Asked at every attempt, so a rotation
   * applies to retries too. Undefined: `secret`.
   */
  secretsFor?(jobId: string): Promise<string[] | undefined>;
  logger: Logger;
  /** Delays before each retry (ms); its length + 1 is the number of attempts. Default: about a day. */
  schedule?: readonly number[];
  /** Random spread of each delay, as a fraction (default 0.1). */
  jitter?: number;
  /** Longest Retry-After honoured (ms, default 1 h). */
  retryAfterCapMs?: number;
  /** How often the dispatcher looks for due deliveries when idle (ms, default 1000). */
  pollMs?: number;
  /** Time allowed for one attempt, response headers included (ms, default 15000). */
  timeoutMs?: number;
  /** How long a claim holds before another dispatcher may take the row (ms, default 2 × timeoutMs + 30 s). */
  leaseMs?: number;
  /** Sends in flight at once per process (default 8). */
  concurrency?: number;
  /** How long stop() waits for sends in flight before aborting them (ms, default 5000). */
  stopTimeoutMs?: number;
  /** Which hosts deliveries may reach, checked on the resolved address of every connection (default: public only). */
  policy?: TargetPolicy;
  /** How host names are resolved for that check (default: the OS resolver). Tests inject one. */
  resolve?: Resolve;
  /** Called once per delivery, after it was recorded as delivered (2xx). Errors are logged, not raised. */
  onDelivered?(jobId: string, deliveryId: string): void | Promise<void>;
  /** Called once per delivery, after it was recorded as failed (final status or retries spent). */
  onFailed?(jobId: string, deliveryId: string, reason: string): void | Promise<void>;
}

export interface EnqueueNotification {
  jobId: string;
  url: string;
  /** POST (default) or PUT. */
  method?: NotificationMethod | string;
  /** "Name: value" lines, in clear or already sealed with the same box (as a job's stored request holds them). */
  authHeaders?: string[];
  /** The event record to deliver (sent as JSON, exactly these bytes signed). */
  payload: object;
  /** A delivery id to use (idempotent: enqueueing an id that exists does nothing). Default: a new `msg_…` id. */
  id?: string;
  /** First attempt not before this time (default: at once). */
  notBefore?: Date;
}

/** A delivery as the job record shows it: no header value in clear, the url without query or credentials. */
export interface DeliveryView {
  deliveryId: string;
  /** The target without its query string or userinfo (which often hold secrets). */
  url: string;
  method: string;
  status: DeliveryStatus;
  /** Attempts in the current round (a redelivery starts a new one; the log keeps them all). */
  attempts: number;
  maxAttempts: number;
  /** When the next attempt is due (pending deliveries only). */
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  /** The auth header lines, values masked. */
  authHeaders: string[];
  log: DeliveryAttempt[];
  createdAt: string;
  updatedAt: string;
}

export { NotificationTargetError };

/** Why a delivery cannot be sent again: it does not exist (for that job), or it has not failed. */
export class RedeliverError extends Error {
  constructor(
    readonly reason: 'not_found' | 'not_failed',
    message: string,
  ) {
    super(message);
    this.name = 'RedeliverError';
  }
}

/** What the delivery log says when no response came: a class, never the host, port or system error. */
export const DELIVERY_ERRORS = {
  refused: 'refused: target not allowed',
  connection: 'connection failed',
  timeout: 'timeout',
} as const;

export function newDeliveryId(): string {
  return `msg_${crypto.randomBytes(16).toString('base64url')}`;
}

type Send = { row: DeliveryRow; done: Promise<void> };

export class NotificationOutbox {
  private readonly store: DeliveryStore;
  private readonly log: Logger;
  private readonly key: Buffer;
  private readonly backoff: BackoffOptions;
  private readonly schedule: readonly number[];
  private readonly pollMs: number;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly stopTimeoutMs: number;
  private readonly userAgent = `scrubline/${VERSION}`;
  private readonly policy: TargetPolicy;

  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  /** A kick came during a tick: look again at once after it. */
  private again = false;
  /** The last claim filled every free slot, so more may be due: a send that finishes looks at once. */
  private moreDue = false;
  private readonly inFlight = new Set<Send>();
  private abort = new AbortController();

  constructor(private readonly options: NotificationOutboxOptions) {
    this.key = secretKey(options.secret);
    this.store = new DeliveryStore(options.db);
    this.log = options.logger.child({ component: 'notifications' });
    this.schedule = options.schedule ?? DEFAULT_SCHEDULE_MS;
    if (this.schedule.some((ms) => !Number.isFinite(ms) || ms < 0)) throw new RangeError('schedule must hold non-negative delays in ms');
    this.backoff = { schedule: this.schedule, jitter: options.jitter, retryAfterCapMs: options.retryAfterCapMs };
    this.pollMs = options.pollMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.leaseMs = options.leaseMs ?? 2 * this.timeoutMs + 30_000;
    if (this.leaseMs <= this.timeoutMs) throw new RangeError('leaseMs must be longer than timeoutMs');
    this.concurrency = Math.max(1, options.concurrency ?? 8);
    this.stopTimeoutMs = options.stopTimeoutMs ?? 5000;
    this.policy = options.policy ?? PUBLIC_ONLY;
  }

  /**
   * Write a delivery with `db` — the caller's transaction (a Kysely transaction, or a DeliveryStore bound to
   * one, as Store.transaction's repositories would hold it), so that it lands with the job's terminal state —
   * or the database. Auth headers are sealed at rest. Throws NotificationTargetError for a url that is not http(s),
   * a method other than POST/PUT or a malformed header line. Answers the delivery id (the webhook-id). When
   * enqueueing inside a transaction, call kick() after it commits for the delivery to start at once.
   */
  async enqueue(db: Kysely<Tables> | DeliveryStore, notification: EnqueueNotification): Promise<string> {
    const url = checkUrl(notification.url).toString();
    const method = checkMethod(notification.method);
    const sealed = (notification.authHeaders ?? []).map((line, index) => {
      if (typeof line === 'string' && this.options.box.isSealed(line)) {
        let plain: string;
        try {
          plain = this.options.box.open(line);
        } catch {
          throw new NotificationTargetError(`auth header ${index} is sealed with another key`, `auth_headers/${index}`);
        }
        parseHeaderLine(plain, index);
        return line;
      }
      parseHeaderLine(line, index);
      return this.options.box.seal(line);
    });
    if (notification.payload === null || typeof notification.payload !== 'object') {
      throw new TypeError('notification payload must be an object');
    }
    const id = notification.id ?? newDeliveryId();
    await (db instanceof DeliveryStore ? db : new DeliveryStore(db)).insert({
      id,
      jobId: notification.jobId,
      url,
      method,
      headers: JSON.stringify(sealed),
      payload: JSON.stringify(notification.payload),
      nextAttemptAt: notification.notBefore,
    });
    this.log.debug({ deliveryId: id, jobId: notification.jobId, target: loggableUrl(url) }, 'notification queued');
    this.kick();
    return id;
  }

  /** Start the dispatcher loop (idempotent). */
  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.abort.signal.aborted) this.abort = new AbortController();
    this.arm(0);
  }

  /** Look for due deliveries now rather than at the next poll (after a transaction that enqueued commits). */
  kick(): void {
    if (!this.running) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.arm(0);
  }

  /**
   * Stop the loop and wait for the sends in flight, up to stopTimeoutMs; sends still running then are
   * aborted and their deliveries handed back as due at once (sent again, same id, by the next dispatcher).
   */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.ticking;
    if (this.inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), this.stopTimeoutMs);
        timer.unref();
      });
      const settled = Promise.all([...this.inFlight].map((s) => s.done)).then(() => 'done' as const);
      if ((await Promise.race([settled, timedOut])) === 'timeout') {
        this.log.warn({ inFlight: this.inFlight.size }, 'notifications still sending at stop; aborted, they will be sent again');
        this.abort.abort();
        await settled;
      }
      clearTimeout(timer);
    }
  }

  /** Claim the deliveries due now and send them; resolves when those sends are done. Answers how many. */
  async runOnce(): Promise<number> {
    const sends = await this.claimAndSend();
    await Promise.all(sends.map((s) => s.done));
    return sends.length;
  }

  /** A job's deliveries for its record: attempts, status codes, next try; auth headers masked. */
  async deliveriesFor(jobId: string): Promise<DeliveryView[]> {
    const rows = await this.store.listByJob(jobId);
    return rows.map((row) => this.view(row));
  }

  /** The deliveries of a page of jobs, in one query. */
  async deliveriesForJobs(jobIds: readonly string[]): Promise<Map<string, DeliveryView[]>> {
    const byJob = await this.store.listByJobs(jobIds);
    return new Map([...byJob].map(([id, rows]) => [id, rows.map((row) => this.view(row))]));
  }

  /**
   * Send a failed delivery (retries spent, or refused) again: a new round of attempts, due at once, with the
   * same webhook-id (receivers de-duplicate by it). Throws RedeliverError when the job has no such delivery
   * or it has not failed (pending, sending and delivered ones are left as they are).
   */
  async redeliver(jobId: string, deliveryId: string): Promise<DeliveryView> {
    const requeued = await this.store.requeueFailed(jobId, deliveryId);
    if (!requeued) {
      const row = await this.store.get(deliveryId);
      if (!row || row.job_id !== jobId) throw new RedeliverError('not_found', `Job ${jobId} has no notification delivery ${deliveryId}.`);
      throw new RedeliverError('not_failed', `Delivery ${deliveryId} is ${row.status}; only a failed delivery can be sent again.`);
    }
    this.log.info({ deliveryId, jobId, target: loggableUrl(requeued.url) }, 'notification queued again (redelivery)');
    this.kick();
    return this.view(requeued);
  }

  private view(row: DeliveryRow): DeliveryView {
    const log = parseLog(row);
    const last = [...log].reverse().find((entry) => !entry.requeued);
    return {
      deliveryId: row.id,
      url: maskedUrl(row.url),
      method: row.method,
      status: row.status as DeliveryStatus,
      attempts: row.attempts,
      maxAttempts: maxAttempts(this.schedule),
      nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
      lastStatusCode: last?.statusCode ?? null,
      lastError: last?.error ?? null,
      authHeaders: this.sealedLines(row).map((line) => {
        try {
          return maskHeaderLine(this.options.box.isSealed(line) ? this.options.box.open(line) : line);
        } catch {
          return '****';
        }
      }),
      log,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  /** Deliveries per status, for metrics and status pages. */
  counts(): Promise<Record<DeliveryStatus, number>> {
    return this.store.countByStatus();
  }

  // --- the loop ---

  private arm(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ticking = this.tick().finally(() => {
        this.ticking = undefined;
        if (!this.running) return;
        const soon = this.again;
        this.again = false;
        this.arm(soon ? 0 : this.pollMs);
      });
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      await this.claimAndSend();
    } catch (error) {
      this.log.warn({ err: errorText(error) }, 'notification outbox poll failed');
    }
  }

  private async claimAndSend(): Promise<Send[]> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) {
      this.moreDue = true;
      return [];
    }
    const rows = await this.store.claimDue(new Date(), free, this.leaseMs);
    this.moreDue = rows.length === free;
    return rows.map((row) => {
      const send: Send = { row, done: Promise.resolve() };
      send.done = this.send(row)
        .catch((error) => this.log.error({ deliveryId: row.id, jobId: row.job_id, err: errorText(error) }, 'notification send failed unexpectedly'))
        .finally(() => {
          this.inFlight.delete(send);
          if (this.running && this.moreDue) this.kick();
        });
      this.inFlight.add(send);
      return send;
    });
  }

  private sealedLines(row: DeliveryRow): string[] {
    try {
      const lines = JSON.parse(row.headers);
      return Array.isArray(lines) ? lines.filter((l): l is string => typeof l === 'string') : [];
    } catch {
      return [];
    }
  }

  // --- one attempt ---

  private async send(row: DeliveryRow): Promise<void> {
    const leaseUntil = row.next_attempt_at;
    const context = { deliveryId: row.id, jobId: row.job_id, target: loggableUrl(row.url), attempt: row.attempts + 1 };
    const started = new Date();
    const t0 = performance.now();

    const headers = new Headers();
    try {
      for (const [index, line] of this.sealedLines(row).entries()) {
        const [name, value] = parseHeaderLine(this.options.box.isSealed(line) ? this.options.box.open(line) : line, index);
        headers.append(name, value);
      }
    } catch (error) {
      const reason = error instanceof NotificationTargetError ? error.message : 'auth headers cannot be opened (was the secret key changed?)';
      await this.finish(row, leaseUntil, started, { error: reason }, 0, context, true);
      return;
    }
    let keys: (string | Buffer)[];
    try {
      keys = (await this.options.secretsFor?.(row.job_id)) ?? [this.key];
      if (keys.length === 0) keys = [this.key];
    } catch {
      // Never sent unsigned, nor signed with a secret the receiver was not given.
      await this.finish(row, leaseUntil, started, { error: 'signing secrets cannot be opened (was the secret key changed?)' }, 0, context, true);
      return;
    }
    const body = row.payload;
    headers.set('content-type', 'application/json');
    headers.set('user-agent', this.userAgent);
    for (const [name, value] of Object.entries(signatureHeaders(keys, row.id, body, started))) headers.set(name, value);

    let outcome: AttemptOutcome;
    let refused = false;
    try {
      const response = await sendRequest(row.url, {
        method: row.method,
        headers,
        body,
        signal: AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.abort.signal]),
        policy: this.policy,
        resolve: this.options.resolve,
      });
      outcome = { statusCode: response.statusCode, retryAfter: response.retryAfter };
    } catch (error) {
      if (this.abort.signal.aborted) {
        // Stopping: not an attempt that counts; the delivery is due again at once for whoever runs next.
        await this.store.reschedule(row.id, leaseUntil, new Date()).catch(() => false);
        this.log.info(context, 'notification send aborted at stop; handed back');
        return;
      }
      // The log (readable with a read-scope key) gets a class only; the system error goes to the server log.
      refused = isRefusal(error);
      outcome = { error: refused ? DELIVERY_ERRORS.refused : isTimeout(error) ? `${DELIVERY_ERRORS.timeout}: no response within ${this.timeoutMs} ms` : DELIVERY_ERRORS.connection };
      this.log.info({ ...context, cause: systemErrorCode(error) }, `notification attempt: ${outcome.error}`);
    }
    // A refused target is not tried again (final): it stays refused until the allow-list changes (then: redeliver).
    await this.finish(row, leaseUntil, started, outcome, Math.round(performance.now() - t0), context, refused);
  }

  /** Record the attempt and move the delivery on, in one transaction; then tell the callbacks. */
  private async finish(
    row: DeliveryRow,
    leaseUntil: string,
    started: Date,
    outcome: AttemptOutcome,
    durationMs: number,
    context: Record<string, unknown>,
    final: boolean,
  ): Promise<void> {
    const attempt: DeliveryAttempt = {
      at: started.toISOString(),
      ...(outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : { error: outcome.error }),
      durationMs,
    };
    const now = new Date();
    const { decision, won, attempts } = await this.options.db.transaction().execute(async (trx) => {
      const store = new DeliveryStore(trx);
      const attempts = await store.recordAttempt(row.id, attempt, now);
      const decision: Decision = final ? { action: 'fail', reason: 'error' in outcome ? outcome.error : 'not sendable' } : decide(attempts, outcome, now, this.backoff);
      let won: boolean;
      if (decision.action === 'delivered') won = await store.markDelivered(row.id, leaseUntil, now);
      else if (decision.action === 'fail') won = await store.markFailed(row.id, leaseUntil, now);
      else won = await store.reschedule(row.id, leaseUntil, decision.at, now);
      return { decision, won, attempts };
    });
    const result = outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : { error: outcome.error };
    if (!won) {
      // Our claim ran out and another dispatcher holds the row now: it decides what comes next.
      this.log.warn({ ...context, ...result, durationMs }, 'notification claim expired during the attempt; outcome recorded in the log only');
      return;
    }
    if (decision.action === 'delivered') {
      this.log.info({ ...context, attempts, ...result, durationMs }, 'notification delivered');
      await this.callback('onDelivered', () => this.options.onDelivered?.(row.job_id, row.id), context);
    } else if (decision.action === 'fail') {
      this.log.warn({ ...context, attempts, ...result, durationMs, reason: decision.reason }, 'notification failed');
      await this.callback('onFailed', () => this.options.onFailed?.(row.job_id, row.id, decision.reason), context);
    } else {
      this.log.info({ ...context, ...result, durationMs, nextAttemptAt: decision.at.toISOString() }, 'notification attempt failed; will retry');
    }
  }

  private async callback(name: string, call: () => void | Promise<void>, context: Record<string, unknown>): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.log.error({ ...context, err: errorText(error) }, `notification ${name} callback failed`);
    }
  }
}

function isRefusal(error: unknown): boolean {
  return error instanceof TargetNotAllowedError || (error as { code?: string })?.code === 'ETARGETNOTALLOWED';
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/** The system error code (ECONNREFUSED, ENOTFOUND...) for the server's own log; never a message (it names hosts). */
function systemErrorCode(error: unknown): string {
  const err = error as { code?: unknown; name?: unknown; cause?: { code?: unknown } };
  const code = err?.code ?? err?.cause?.code ?? err?.name;
  return typeof code === 'string' && /^[A-Za-z_]{1,40}$/.test(code) ? code : 'unknown';
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
