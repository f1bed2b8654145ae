// The job worker: claims queued jobs from the store (the durable queue), runs the pipeline on each, and
// records the outcome. A lease on the database's clock, renewed while a job runs, lets another worker take
// over a job whose worker died. Every write of a run is fenced by its claim (JobRun): a run that lost its job
// (cancelled, deleted, taken over) writes nothing, and is stopped (an AbortSignal reaches decoding,
// recognition and redaction) as soon as this process learns of it.
import { measureLoudness } from '../audio/measureLoudness.js';
import { indexRedactedJob } from './searchIndex.js';
import type { Logger } from 'pino';
import { analysisAsked } from './jobAnalysis.js';
import type { Transcript } from '../transcript/types.js';
import type { JobRow } from '../store/tables.js';
import type { Repositories, Store } from '../store/index.js';
import type { JobClaim, JobRun } from '../store/jobs.js';
import { BlobNotFoundError, type BlobStore, BlobUnavailableError, keyFolder, keyName, stageBlob, type StagedFile } from '../store/blobs/index.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { TranscribeParams } from './request.js';
import { deleteAfter } from './retention.js';
import { REDACTED_COPY_PREFIX } from './jobRedaction.js';
import { textToTranscript } from './textTranscript.js';
import { readTextInput, removeTextInput } from './textInput.js';
import { newWorkerId } from './workerId.js';
import { ServiceError } from '../errors.js';
import { SHUTTING_DOWN } from '../workers/index.js';

export interface RecognizeFile {
  (audioPath: string, options: { model: string; params: Record<string, unknown>; maxSeconds: number; signal?: AbortSignal }): Promise<Transcript>;
}

/** An error that retrying cannot cure (undecodable audio, unknown model): the job fails at once. */
export class PermanentJobError extends Error {}

/** The run no longer holds its job (cancelled, deleted, taken over after its lease ran out): it stops, writing nothing. */
export class JobLostError extends Error {
  override name = 'JobLostError';
}

export interface WorkerOptions {
  store: Store;
  /** Where job recordings, redacted copies and text inputs are kept (keys in the rows). */
  blobs: BlobStore;
  /** This machine's folder for the files of a run (a recording staged from a bucket); emptied after each run. */
  tempDir: string;
  recognize: RecognizeFile;
  logger: Logger;
  concurrency: number;
  maxAudioSeconds: number;
  /** Engine parameters in force for a job (system and project overrides applied). */
  engineParams: (sid?: string) => Promise<Record<string, unknown>>;
  /**
   * Text redaction of a recognized transcript, when the job asks for it (undefined: not asked). `replaceAudio`:
   * a checked redacted copy of the recording (relative path) that replaces the original, which is deleted.
   */
  redact?: (
    job: JobRow,
    params: TranscribeParams,
    transcript: Transcript,
    signal?: AbortSignal,
    runId?: string,
    audioFile?: string,
  ) => Promise<{ transcript: Transcript; record: unknown; replaceAudio?: string } | undefined>;
  /**
   * A job whose recording is in a client's bucket (cloudStoragePath): fetch it into the blob store, answering
   * its key and length; the worker records them on the job (fenced) before the run goes on.
   */
  fetchSource?: (job: JobRow, params: TranscribeParams, signal: AbortSignal) => Promise<{ key: string; audioSeconds: number } | undefined>;
  /** A text job whose transcript is in a client's bucket (transcriptInput): read into its text input (cloud/fetchText.ts). */
  fetchText?: (job: JobRow, params: TranscribeParams, signal: AbortSignal) => Promise<boolean>;
  /** Before the terminal transaction of a completed job: write its results where it asked (transcriptOutput). */
  exportResults?: (job: JobRow, transcript: Transcript, redactionRecord: unknown, signal: AbortSignal) => Promise<void>;
  /** How long (ms) a job whose storage could not be reached waits before it is tried again (default 30 s). */
  storageRetryMs?: number;
  /** How many times a job waits for a client's bucket out of reach before it fails (default 20). */
  clientBucketMaxWaits?: number;
  /** Inside the terminal transaction: queue the job's notification with its terminal event. */
  onTerminal?: (tx: Repositories, job: JobRow, event: EventRecord) => Promise<void>;
  /** After the terminal transaction committed (start sending at once). */
  afterTerminal?: () => void;
  /** Called after a job reached a terminal state (metrics). */
  onFinished?: (job: JobRow) => Promise<void>;
  /** How long a claim holds without renewal (database clock); renewed every third of it. */
  leaseMs?: number;
  pollMs?: number;
  maxAttempts?: number;
}

interface ActiveRun {
  run: JobRun;
  controller: AbortController;
  done: Promise<void>;
}

/** Retries of a run's closing write (a transient database error must not leave the job to its lease). */
const OUTCOME_TRIES = 3;

export class JobWorker {
  readonly id = newWorkerId();
  /** Runs in hand, by run id (a job cancelled and resubmitted can have an old run still stopping). */
  private running = new Map<string, ActiveRun>();
  /** Recordings staged to this machine for a run, by run id; removed when the run ends. */
  private staged = new Map<string, StagedFile>();
  private timer: NodeJS.Timeout | undefined;
  /** The claiming pass in progress: stop() waits for it, so that nothing is claimed once stop() returned. */
  private filling: Promise<void> | undefined;
  private stopped = true;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;

  constructor(private readonly options: WorkerOptions) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 250;
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  get busy(): number {
    return this.running.size;
  }

  /**
   * Start claiming. Jobs left processing by a worker that stopped (killed, crashed, cut off from the
   * database) are claimed again once their lease runs out on the database's clock.
   */
  async start(): Promise<void> {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stop claiming; wait for the jobs in hand (bounded), leaving any unfinished job to its lease. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.filling;
    await Promise.race([Promise.allSettled([...this.running.values()].map((r) => r.done)), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }

  /** Look for work now (after a submit) rather than at the next poll. */
  poke(): void {
    if (!this.stopped) this.schedule(0);
  }

  /**
   * Stop this process's run of a job at once (it was cancelled or deleted here). Runs in other processes
   * learn of it at their next lease renewal; their writes are refused by the fence meanwhile.
   */
  abort(jobId: string, reason: string): number {
    let aborted = 0;
    for (const active of this.running.values()) {
      if (active.run.jobId !== jobId || active.controller.signal.aborted) continue;
      active.controller.abort(new JobLostError(reason));
      aborted++;
    }
    return aborted;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.filling = this.fill();
    }, ms);
    this.timer.unref();
  }

  private async fill(): Promise<void> {
    if (this.stopped) return;
    try {
      while (!this.stopped && this.running.size < this.options.concurrency) {
        const claim = await this.options.store.jobs.claimNext(this.id, this.leaseMs);
        if (!claim) break;
        if (claim.takenOver) {
          this.options.logger.warn({ jobId: claim.job.id, attempt: claim.run.attempt }, 'took over a job whose lease ran out (its worker stopped mid-job)');
        }
        const controller = new AbortController();
        const { runId } = claim.run;
        const done = this.run(claim, controller)
          .catch((error: unknown) => this.options.logger.error({ err: error, jobId: claim.job.id }, 'a job run failed outside its error handling'))
          .finally(() => {
            this.running.delete(runId);
            this.poke();
          });
        this.running.set(runId, { run: claim.run, controller, done });
      }
    } catch (error) {
      this.options.logger.error({ err: error }, 'claiming a job failed');
    }
    if (!this.stopped) this.schedule(this.pollMs);
  }

  /** Renew the lease; a run that no longer holds its job is stopped. A failed renewal is tried again next beat. */
  private async renew(run: JobRun, controller: AbortController, log: Logger): Promise<void> {
    try {
      if (controller.signal.aborted) return;
      if (!(await this.options.store.jobs.renewLease(run, this.leaseMs))) {
        controller.abort(new JobLostError('the job is no longer this run\'s (cancelled, deleted, or its lease ran out and it was taken over)'));
      }
    } catch (error) {
      log.warn({ err: error }, 'renewing the job lease failed; trying again at the next beat');
    }
  }

  private async run(claim: JobClaim, controller: AbortController): Promise<void> {
    const { job, run } = claim;
    const log = this.options.logger.child({ jobId: job.id, attempt: run.attempt });
    const heartbeat = setInterval(() => void this.renew(run, controller, log), Math.max(50, this.leaseMs / 3));
    heartbeat.unref();
    try {
      await this.attempt(job, run, controller.signal, log);
    } catch (error) {
      if (controller.signal.aborted || error instanceof JobLostError) {
        const reason = controller.signal.aborted ? (controller.signal.reason as Error)?.message : (error as Error).message;
        log.info({ reason }, 'run stopped: it no longer holds its job; nothing of it is recorded');
        return;
      }
      if (error instanceof ServiceError && error.extra.reason === SHUTTING_DOWN) {
        // The process is stopping under the run: the job is not failed, it is left to its lease and tried again.
        log.info('run stopped: the service is stopping; the job is left to be tried again');
        return;
      }
      await this.recordFailure(job, run, error as Error, log);
    } finally {
      clearInterval(heartbeat);
      this.staged.get(run.runId)?.dispose();
      this.staged.delete(run.runId);
    }
    try {
      const finished = await this.options.store.jobs.get(job.id);
      if (finished && TERMINAL_STATES.has(finished.status) && this.options.onFinished) await this.options.onFinished(finished);
    } catch (error) {
      log.error({ err: error }, 'after-job step failed');
    }
  }

  /** One run of the pipeline, from the 'started' event to the terminal transaction. Throws what went wrong. */
  private async attempt(job: JobRow, run: JobRun, signal: AbortSignal, log: Logger): Promise<void> {
    const { store } = this.options;
    const started = await this.fenced(run, (tx) =>
      tx.events.record({ type: 'job', subType: 'started', subject: job.id, jobId: job.id, status: 'processing', details: { attempt: run.attempt, worker: this.id } }),
    );
    if (!started) throw new JobLostError('the job was cancelled or taken over before its run started');
    // Claimed more often than it may be tried: the earlier attempts ended without a word (the process
    // running them died — a native library crash, out of memory). Running it again would take this process
    // down too, forever; it fails instead, with the reason.
    if (run.attempt > this.maxAttempts) {
      throw new PermanentJobError(
        `the job was started ${run.attempt - 1} times without finishing, at least once ending with the process running it (a crash or out of memory in the speech engine?); not tried again`,
      );
    }
    const params = JSON.parse(job.params) as TranscribeParams;
    job = await this.fetched(job, params, run, signal);
    if (job.input_kind === 'text' && params.transcriptInput && this.options.fetchText) await this.options.fetchText(job, params, signal);
    const audioFile = await this.stage(job, run, signal);
    const recognized = await this.transcribe(job, params, signal, audioFile);
    signal.throwIfAborted();
    // Text redaction, when asked for, happens before anything is stored: the unredacted words are not kept.
    const redacted = this.options.redact ? await this.options.redact(job, params, recognized, signal, run.runId, audioFile) : undefined;
    const copy = redactedCopyOf(redacted?.record);
    const transcript = redacted?.transcript ?? recognized;
    // Loudness per party (issue 35): levels only, from the recording, when the job asked for analytics.
    if (analysisAsked(params) && job.input_kind !== 'text' && audioFile) {
      const loudness = await measureLoudness(audioFile, { maxSeconds: this.options.maxAudioSeconds, signal }).catch((error: Error) => {
        log.warn({ err: error }, 'loudness not measured');
        return undefined;
      });
      if (loudness) transcript.loudness = loudness;
    }
    const replaced = redacted?.replaceAudio && job.audio_path && job.audio_path !== redacted.replaceAudio ? job.audio_path : undefined;
    const words = transcript.channels.reduce((n, c) => n + c.words.length, 0);
    try {
      signal.throwIfAborted();
      await this.options.exportResults?.(job, transcript, redacted?.record, signal);
      signal.throwIfAborted();
      // The result, the redaction state, the recording's new path and the terminal state land together, and
      // only while this run holds the job.
      const held = await this.finalize(
        run,
        { status: 'completed', audioSeconds: transcript.audioSeconds, processingSeconds: transcript.processingSeconds, model: transcript.model },
        `${words} words from ${transcript.audioSeconds.toFixed(1)} s of audio`,
        { words, audioSeconds: transcript.audioSeconds },
        async (tx) => {
          if (!(await tx.jobs.saveResult(run, transcript, redacted?.record))) throw new JobLostError('the job was lost while its result was stored');
          // Analytics and insights (issue 18) are produced from the stored transcript: the job says so from now on.
          if (analysisAsked(params)) await tx.jobs.updateHeld(run, { insights_completed_at: new Date().toISOString() });
          if (!redacted) return;
          // A text job's input holds the values just redacted: it is not kept either.
          const stored = JSON.parse(job.params) as Record<string, unknown>;
          if (job.input_kind === 'text') delete stored.text;
          await tx.jobs.updateHeld(run, {
            redaction_status: 'completed',
            params: JSON.stringify(stored),
            // Audio redaction wrote a checked copy the original is not kept beside: the copy becomes the job's
            // recording (what /audio serves and a resubmit runs on); the original is deleted once this commits.
            ...(replaced && { audio_path: redacted.replaceAudio }),
          });
          // Searchable from now on: the text stored is the redacted one, and its redaction completed.
          await indexRedactedJob(tx, job, transcript);
        },
      );
      if (!held) throw new JobLostError('the job was cancelled, deleted or taken over while it ran; its result is not recorded');
    } catch (error) {
      // This run's redacted copy is nobody's recording: not left in the store beside the job's.
      if (copy) await this.options.blobs.delete(copy).catch((e: unknown) => log.warn({ err: e }, 'removing an unused redacted copy failed'));
      throw error;
    }
    await this.cleanUp(log, 'removing what the completed job no longer keeps', async () => {
      if (redacted && job.input_kind === 'text') await removeTextInput(this.options.blobs, job.id);
      if (replaced) await this.options.blobs.delete(replaced);
      // Copies of earlier runs (a resubmit with other kinds) are not the job's any more: only this run's is kept.
      if (copy) await removeOtherCopies(this.options.blobs, copy);
    });
    log.info({ audioSeconds: transcript.audioSeconds, processingSeconds: transcript.processingSeconds, words }, 'job completed');
  }

  /**
   * A failed attempt: back to the queue when another try may cure it, else failed with the reason. The write is
   * tried again on a transient database error; if it still fails, the job is left to its lease, which runs out
   * (the heartbeat has stopped) and hands it to the next claim — never stuck.
   */
  /** How many times the job waited for a client's bucket (its 'waiting_for_storage' events that say so). */
  private async clientBucketWaits(jobId: string): Promise<number> {
    const events = await this.options.store.events.list({ type: 'job', subject: jobId, limit: 10_000, offset: 0 });
    // An event's details are kept as JSON text.
    const saysClientBucket = (details: unknown) => typeof details === 'string' && (JSON.parse(details) as { clientBucket?: boolean }).clientBucket === true;
    return events.filter((e) => e.subType === 'waiting_for_storage' && saysClientBucket(e.details)).length;
  }

  private async recordFailure(job: JobRow, run: JobRun, error: Error, log: Logger): Promise<void> {
    let message = error.message;
    let permanent = error instanceof PermanentJobError || (error as { permanent?: boolean }).permanent === true;
    // Storage out of reach is nobody's fault the job could cure: it waits and is tried again, its attempts
    // not counted, with the reason on it (last_error and a 'waiting_for_storage' event).
    let waitMs = error instanceof BlobUnavailableError ? (this.options.storageRetryMs ?? 30_000) : undefined;
    // A client's bucket is not ours to wait for without end: after so many waits the job fails with the reason.
    const clientBucket = (error as { clientBucket?: boolean }).clientBucket === true;
    if (waitMs !== undefined && clientBucket) {
      const waited = await this.clientBucketWaits(job.id).catch(() => 0);
      const most = this.options.clientBucketMaxWaits ?? 20;
      if (waited >= most) {
        waitMs = undefined;
        permanent = true;
        message = `${message} (tried ${waited + 1} times; not tried again)`;
      }
    }
    for (let tries = 1; ; tries++) {
      try {
        if (waitMs !== undefined || (!permanent && run.attempt < this.maxAttempts)) {
          // Transient: back to the queue for another try.
          const requeued = await this.fenced(run, async (tx) => {
            if (!(await tx.jobs.requeue(run, message, waitMs))) return;
            const subType = waitMs === undefined ? 'retrying' : 'waiting_for_storage';
            await tx.events.record({ type: 'job', subType, subject: job.id, jobId: job.id, status: 'queued', message, ...(waitMs !== undefined && { details: { retryInMs: waitMs, ...(clientBucket && { clientBucket: true }) } }) });
          });
          if (requeued) log.warn({ err: message }, 'job failed; queued again');
          else log.info('job failed after it was cancelled or taken over; nothing recorded');
          return;
        }
        // A redaction that was asked for and never ran is a failed redaction, not a pending one.
        const redactionStatus = job.redaction_status === 'pending' ? 'failed' : undefined;
        const text = job.input_kind === 'text' ? withoutTextInput(job) : undefined;
        // A redaction that gave up says what it did (kinds and times): the operator sees why on the job.
        const redactionRecord = (error as { redactionRecord?: unknown }).redactionRecord;
        const held = await this.finalize(run, { status: 'failed', error: message, redactionStatus, redactionRecord }, message, {}, async (tx) => {
          // A failed text job keeps no input text: not its file, nor (rows written before the file) in its params.
          if (text) await tx.jobs.updateHeld(run, { params: text });
        });
        if (held && job.input_kind === 'text') await this.cleanUp(log, "removing the failed job's text input", () => removeTextInput(this.options.blobs, job.id));
        if (held) log.warn({ err: message }, 'job failed');
        else log.info('job failed after it was cancelled or taken over; nothing recorded');
        return;
      } catch (writeError) {
        if (tries >= OUTCOME_TRIES) {
          log.error({ err: writeError, jobError: message }, 'recording the job\'s failure failed; the job is claimed again when its lease runs out');
          return;
        }
        log.warn({ err: writeError }, 'recording the job\'s failure failed; trying again');
        await new Promise((r) => setTimeout(r, 100 * tries));
      }
    }
  }

  /** Run `work` in a transaction that first checks (and locks) the run's hold on its job; false when lost. */
  private async fenced(run: JobRun, work: (tx: Repositories) => Promise<unknown>): Promise<boolean> {
    return this.options.store.transaction(async (tx) => {
      if (!(await tx.jobs.hold(run))) return false;
      await work(tx);
      return true;
    });
  }

  /**
   * The terminal state, its events and the notification in one transaction: a crash leaves either the job
   * running (to be taken up again) or finished with its notification on the way, never finished unnotified.
   * `before` writes the run's other changes in the same transaction (only while the run holds the job).
   */
  private async finalize(
    run: JobRun,
    outcome: Parameters<Store['jobs']['finish']>[1],
    message: string,
    details: Record<string, unknown> = {},
    before?: (tx: Repositories) => Promise<void>,
  ): Promise<boolean> {
    const { store } = this.options;
    const held = await store.transaction(async (tx) => {
      if (!(await tx.jobs.hold(run))) return false;
      await before?.(tx);
      const job = (await tx.jobs.get(run.jobId))!;
      const params = JSON.parse(job.params) as TranscribeParams;
      if (!(await tx.jobs.finish(run, { ...outcome, deleteAfter: deleteAfter(params, new Date()) }))) return false;
      if (outcome.status === 'completed') {
        await tx.events.record({ type: 'job', subType: 'transcribed', subject: run.jobId, jobId: run.jobId, status: 'processing', details });
      }
      const terminal = await tx.events.record({ type: 'job', subType: outcome.status, subject: run.jobId, jobId: run.jobId, status: outcome.status, message });
      const finished = (await tx.jobs.get(run.jobId))!;
      await this.options.onTerminal?.(tx, finished, terminal);
      return true;
    });
    if (held) this.options.afterTerminal?.();
    return held;
  }

  /**
   * A job whose recording is still in the client's bucket: fetched into the blob store (fetchSource), its key
   * and length recorded while this run holds it. Answers the job as it now is.
   */
  private async fetched(job: JobRow, params: TranscribeParams, run: JobRun, signal: AbortSignal): Promise<JobRow> {
    if (job.input_kind !== 'audio' || job.audio_path || !this.options.fetchSource) return job;
    const source = await this.options.fetchSource(job, params, signal);
    if (!source) return job;
    const recorded = await this.options.store.jobs.updateHeld(run, { audio_path: source.key, audio_seconds: source.audioSeconds });
    if (!recorded) {
      await this.options.blobs.delete(source.key).catch(() => {});
      throw new JobLostError('the job was lost while its recording was fetched');
    }
    return { ...job, audio_path: source.key, audio_seconds: source.audioSeconds };
  }

  /** The job's recording as a file on this machine for this run (a local store's own file; a bucket's, copied). */
  private async stage(job: JobRow, run: JobRun, signal: AbortSignal): Promise<string | undefined> {
    if (job.input_kind === 'text' || !job.audio_path) return undefined;
    let staged: StagedFile;
    try {
      staged = await stageBlob(this.options.blobs, job.audio_path, this.options.tempDir, signal);
    } catch (error) {
      if (error instanceof BlobNotFoundError) throw new PermanentJobError("the job's recording is no longer stored");
      throw error;
    }
    this.staged.set(run.runId, staged);
    return staged.path;
  }

  /** Steps after a commit: tried three times, then logged (they remove what is no longer kept). */
  private async cleanUp(log: Logger, what: string, work: () => Promise<void>): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        return await work();
      } catch (error) {
        if (tries >= OUTCOME_TRIES) return void log.error({ err: error }, `${what} failed`);
        await new Promise((r) => setTimeout(r, 200 * tries));
      }
    }
  }

  private async transcribe(job: JobRow, params: TranscribeParams, signal: AbortSignal, audioFile?: string): Promise<Transcript> {
    if (job.input_kind === 'text') {
      // The input is in the job's folder; rows written before that kept it in params.
      const text = (await readTextInput(this.options.blobs, job.id)) ?? params.text;
      if (text === undefined) throw new PermanentJobError('the job has no stored text input (it was redacted or its job failed); submit the text again');
      return textToTranscript(text, 'text:input', params.agent_location === 'right' ? 1 : 0);
    }
    if (!job.audio_path || !audioFile) throw new PermanentJobError('the job has no stored audio');
    const engineParams = { ...(await this.options.engineParams(params.sid)), ...params };
    return this.options.recognize(audioFile, {
      model: job.model ?? String(engineParams.model),
      params: engineParams,
      maxSeconds: this.options.maxAudioSeconds,
      signal,
    });
  }
}

const TERMINAL_STATES = new Set(['completed', 'failed', 'cancelled']);

/** A text job's stored params without the input text (rows written before the file kept it there), or undefined. */
function withoutTextInput(job: JobRow): string | undefined {
  const stored = JSON.parse(job.params) as Record<string, unknown>;
  if (!('text' in stored)) return undefined;
  delete stored.text;
  return JSON.stringify(stored);
}

/** The redacted copy a redaction record names (`record.audio.path`, relative to the data directory). */
function redactedCopyOf(record: unknown): string | undefined {
  const audio = (record as { audio?: { path?: unknown } } | undefined)?.audio;
  return typeof audio?.path === 'string' ? audio.path : undefined;
}

/** Remove the redacted copies in `keep`'s folder other than `keep`. */
async function removeOtherCopies(blobs: BlobStore, keep: string): Promise<void> {
  for (const blob of await blobs.list(`${keyFolder(keep)}/${REDACTED_COPY_PREFIX}`)) {
    if (blob.key !== keep && keyName(blob.key).startsWith(REDACTED_COPY_PREFIX)) await blobs.delete(blob.key);
  }
}
