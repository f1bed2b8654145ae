// The job worker: claims queued jobs from the store (the durable queue), runs the pipeline on each, and
// records the outcome. A lease, renewed while a job runs, lets another worker take over a job whose
// worker died; jobs of dead processes on this host are taken back at start.
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Transcript } from '../transcript/types.js';
import type { JobRow } from '../store/tables.js';
import type { Repositories, Store } from '../store/index.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { TranscribeParams } from './request.js';
import { deleteAfter } from './retention.js';
import { textToTranscript } from './textTranscript.js';
import { readTextInput, removeTextInput } from './textInput.js';
import { deadLocalWorkers, newWorkerId } from './workerId.js';

export interface RecognizeFile {
  (audioPath: string, options: { model: string; params: Record<string, unknown>; maxSeconds: number }): Promise<Transcript>;
}

/** An error that retrying cannot cure (undecodable audio, unknown model): the job fails at once. */
export class PermanentJobError extends Error {}

export interface WorkerOptions {
  store: Store;
  dataDir: string;
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
  redact?: (job: JobRow, params: TranscribeParams, transcript: Transcript) => Promise<{ transcript: Transcript; record: unknown; replaceAudio?: string } | undefined>;
  /** Inside the terminal transaction: queue the job's notification with its terminal event. */
  onTerminal?: (tx: Repositories, job: JobRow, event: EventRecord) => Promise<void>;
  /** After the terminal transaction committed (start sending at once). */
  afterTerminal?: () => void;
  /** Called after a job reached a terminal state (metrics). */
  onFinished?: (job: JobRow) => Promise<void>;
  leaseMs?: number;
  pollMs?: number;
  maxAttempts?: number;
}

export class JobWorker {
  readonly id = newWorkerId();
  private running = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
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

  async start(): Promise<void> {
    const dead = deadLocalWorkers(await this.options.store.jobs.processingWorkers());
    const released = await this.options.store.jobs.releaseWorkers(dead);
    if (released > 0) this.options.logger.warn({ released }, 'took back jobs of processes that stopped mid-job');
    this.stopped = false;
    this.schedule(0);
  }

  /** Stop claiming; wait for the jobs in hand (bounded), leaving any unfinished job to its lease. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.race([Promise.allSettled([...this.running.values()]), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }

  /** Look for work now (after a submit) rather than at the next poll. */
  poke(): void {
    if (!this.stopped) this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fill(), ms);
    this.timer.unref();
  }

  private async fill(): Promise<void> {
    if (this.stopped) return;
    try {
      while (!this.stopped && this.running.size < this.options.concurrency) {
        const job = await this.options.store.jobs.claimNext(this.id, this.leaseMs);
        if (!job) break;
        const run = this.run(job).finally(() => {
          this.running.delete(job.id);
          this.poke();
        });
        this.running.set(job.id, run);
      }
    } catch (error) {
      this.options.logger.error({ err: error }, 'claiming a job failed');
    }
    if (!this.stopped) this.schedule(this.pollMs);
  }

  private async run(job: JobRow): Promise<void> {
    const { store, logger } = this.options;
    const log = logger.child({ jobId: job.id });
    const heartbeat = setInterval(() => {
      void store.jobs.renewLease(job.id, this.id, this.leaseMs).catch(() => {});
    }, Math.max(1000, this.leaseMs / 3));
    heartbeat.unref();
    await store.events.record({ type: 'job', subType: 'started', subject: job.id, jobId: job.id, status: 'processing', details: { attempt: job.attempts, worker: this.id } });
    try {
      // Claimed more often than it may be tried: the earlier attempts ended without a word (the process
      // running them died — a native library crash, out of memory). Running it again would take this process
      // down too, forever; it fails instead, with the reason.
      if (job.attempts > this.maxAttempts) {
        throw new PermanentJobError(
          `the job was started ${job.attempts - 1} times without finishing, at least once ending with the process running it (a crash or out of memory in the speech engine?); not tried again`,
        );
      }
      const params = JSON.parse(job.params) as TranscribeParams;
      const recognized = await this.transcribe(job, params);
      // Text redaction, when asked for, happens before anything is stored: the unredacted words are not kept.
      const redacted = this.options.redact ? await this.options.redact(job, params, recognized) : undefined;
      const transcript = redacted?.transcript ?? recognized;
      await store.jobs.saveResult(job.id, transcript, redacted?.record);
      if (redacted) {
        // A text job's input holds the values just redacted: it is not kept either.
        const stored = JSON.parse(job.params) as Record<string, unknown>;
        if (job.input_kind === 'text') delete stored.text;
        await store.jobs.update(job.id, { redaction_status: 'completed', params: JSON.stringify(stored) });
        if (job.input_kind === 'text') removeTextInput(this.options.dataDir, job.id);
        if (redacted.replaceAudio) await this.replaceOriginal(job, redacted.replaceAudio);
      }
      const words = transcript.channels.reduce((n, c) => n + c.words.length, 0);
      const held = await this.finalize(
        job,
        { status: 'completed', audioSeconds: transcript.audioSeconds, processingSeconds: transcript.processingSeconds, model: transcript.model },
        `${words} words from ${transcript.audioSeconds.toFixed(1)} s of audio`,
        { words, audioSeconds: transcript.audioSeconds },
      );
      if (!held) {
        log.info('job was cancelled or taken over while running; its result is not recorded as final');
        return;
      }
      log.info({ audioSeconds: transcript.audioSeconds, processingSeconds: transcript.processingSeconds, words }, 'job completed');
    } catch (error) {
      const message = (error as Error).message;
      const permanent = error instanceof PermanentJobError || (error as { permanent?: boolean }).permanent === true;
      if (!permanent && job.attempts < this.maxAttempts) {
        // Transient: back to the queue for another try.
        if (!(await store.jobs.requeue(job.id, this.id, message))) return; // cancelled or taken over meanwhile
        await store.events.record({ type: 'job', subType: 'retrying', subject: job.id, jobId: job.id, status: 'queued', message });
        log.warn({ err: message, attempt: job.attempts }, 'job failed; queued again');
        return;
      }
      // A redaction that was asked for and never ran is a failed redaction, not a pending one.
      const redactionStatus = job.redaction_status === 'pending' ? 'failed' : undefined;
      if (job.input_kind === 'text') await this.forgetTextInput(job);
      await this.finalize(job, { status: 'failed', error: message, redactionStatus }, message);
      log.warn({ err: message }, 'job failed');
    } finally {
      clearInterval(heartbeat);
    }
    const finished = await store.jobs.get(job.id);
    if (finished && this.options.onFinished) await this.options.onFinished(finished).catch((error) => log.error({ err: error }, 'after-job step failed'));
  }

  /**
   * The terminal state, its events and the notification in one transaction: a crash leaves either the job
   * running (to be taken up again) or finished with its notification on the way, never finished unnotified.
   */
  private async finalize(
    job: JobRow,
    outcome: Parameters<Store['jobs']['finish']>[2],
    message: string,
    details: Record<string, unknown> = {},
  ): Promise<boolean> {
    const { store } = this.options;
    const params = JSON.parse(job.params) as TranscribeParams;
    const held = await store.transaction(async (tx) => {
      if (!(await tx.jobs.finish(job.id, this.id, { ...outcome, deleteAfter: deleteAfter(params, new Date()) }))) return false;
      if (outcome.status === 'completed') {
        await tx.events.record({ type: 'job', subType: 'transcribed', subject: job.id, jobId: job.id, status: 'processing', details });
      }
      const terminal = await tx.events.record({ type: 'job', subType: outcome.status, subject: job.id, jobId: job.id, status: outcome.status, message });
      const finished = (await tx.jobs.get(job.id))!;
      await this.options.onTerminal?.(tx, finished, terminal);
      return true;
    });
    if (held) this.options.afterTerminal?.();
    return held;
  }

  /**
   * Audio redaction wrote a checked copy the original is not kept beside: the copy becomes the job's recording
   * (what /audio serves and a resubmit runs on) and the original is deleted. The row moves first: a crash
   * between the two leaves an unreferenced file in the job's folder, never a job without its audio.
   */
  private async replaceOriginal(job: JobRow, copy: string): Promise<void> {
    if (!job.audio_path || job.audio_path === copy) return;
    await this.options.store.jobs.update(job.id, { audio_path: copy });
    fs.rmSync(path.join(this.options.dataDir, job.audio_path), { force: true });
  }

  /** A failed text job keeps no input text: not its file, nor (rows written before the file) in its params. */
  private async forgetTextInput(job: JobRow): Promise<void> {
    removeTextInput(this.options.dataDir, job.id);
    const stored = JSON.parse(job.params) as Record<string, unknown>;
    if ('text' in stored) {
      delete stored.text;
      await this.options.store.jobs.update(job.id, { params: JSON.stringify(stored) });
    }
  }

  private async transcribe(job: JobRow, params: TranscribeParams): Promise<Transcript> {
    if (job.input_kind === 'text') {
      // The input is in the job's folder; rows written before that kept it in params.
      const text = readTextInput(this.options.dataDir, job.id) ?? params.text;
      if (text === undefined) throw new PermanentJobError('the job has no stored text input (it was redacted or its job failed); submit the text again');
      return textToTranscript(text, 'text:input', params.agent_location === 'right' ? 1 : 0);
    }
    if (!job.audio_path) throw new PermanentJobError('the job has no stored audio');
    const engineParams = { ...(await this.options.engineParams(params.sid)), ...params };
    return this.options.recognize(path.join(this.options.dataDir, job.audio_path), {
      model: job.model ?? String(engineParams.model),
      params: engineParams,
      maxSeconds: this.options.maxAudioSeconds,
    });
  }
}
