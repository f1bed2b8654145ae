// Submitting, reading, cancelling, resubmitting and deleting jobs. An accepted upload is on disk and its
// job row committed before the caller hears 202, so nothing accepted is lost to a crash.
import { checkJobInsights } from './jobAnalysis.js';
import crypto from 'node:crypto';
import path from 'node:path';
import { ServiceError, invalid, notFound } from '../errors.js';
import { BusyError } from '../audio/limiter.js';
import { AUTO_MODEL, isAutoModel, type ModelInfo } from '../engine/models.js';
import type { ProjectConfigs } from '../cache/projectConfigs.js';
import { type RedactionPolicy, parseKinds, redacts, resolvePolicy, storedPolicy, unionPolicies } from '../redact/policy.js';
import type { Scope } from '../store/apiKeys.js';
import { protectCredentials } from '../security/credentials.js';
import type { SecretBox } from '../security/secretBox.js';
import type { Repositories, Store } from '../store/index.js';
import { type BlobStore, BlobUnavailableError, blobKey, keyFolder } from '../store/blobs/index.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import { TERMINAL, type JobListQuery } from '../store/jobs.js';
import type { JobRow } from '../store/tables.js';
import { checkMarks } from '../redact/windows/marks.js';
import { checkNotificationTarget } from './notificationTarget.js';
import type { TargetPolicy } from './notifications/index.js';
import { deleteAfter } from './retention.js';
import { priorityValue, type TranscribeParams } from './request.js';
import type { CloudBuckets } from './cloud/buckets.js';
import { parseBucketRef, parseFolder, parseSource, sourceName, sourceText } from './cloud/location.js';
import { PUBLIC_ONLY, TargetNotAllowedError } from './notifications/targetPolicy.js';
import { hasTextInput, jobFolder, withoutText, writeTextInput } from './textInput.js';

export interface AudioFacts {
  durationSeconds: number;
  sampleRate: number;
  channels: number;
}

/** Reads an upload's facts, or throws an error with `reason` and `message` when it is not usable audio. */
export type ProbeAudio = (filePath: string) => Promise<AudioFacts>;

export interface JobServiceOptions {
  store: Store;
  box: SecretBox;
  /** Where the job's recording and text input are kept (keys in the row, never paths). */
  blobs: BlobStore;
  maxAudioSeconds: number;
  probe: ProbeAudio;
  installedModels: () => ModelInfo[];
  defaultModel: () => Promise<string>;
  /** Told when a job is queued, so a local worker starts at once. */
  onQueued?: () => void;
  /** Inside the transaction that ends a job (cancel): queue its notification. */
  onTerminal?: (tx: Repositories, job: JobRow, event: EventRecord) => Promise<void>;
  afterTerminal?: () => void;
  /** After a cancellation committed, with the job as it was before (metrics). */
  onCancelled?: (job: JobRow) => void;
  /** A job was cancelled or deleted: a run of it in this process stops at once (others at their next lease renewal). */
  onStopped?: (jobId: string, reason: string) => void;
  /** Clients for the buckets jobs name (cloudStoragePath, cloudStorageFolder): a folder is listed at submit. */
  buckets?: CloudBuckets;
  /**
   * Once a job is deleted: remove what it wrote elsewhere (results in a client's bucket), in the background —
   * never in the request. Answers the folder removed; throws naming what was left.
   */
  onDeleting?: (job: JobRow) => Promise<string | undefined>;
  /** After a job's row is gone: what else the service keeps of it goes (a stream's kept transcript). */
  onDeleted?: (job: JobRow) => Promise<void>;
  /** Published project configurations: a job's redaction policy is resolved against them at submit. */
  projects?: ProjectConfigs;
  /** Which notification targets are accepted at submit (default: public hosts only). */
  notificationPolicy?: TargetPolicy;
}

/** Who submits: the API key's scope decides whether a project's required redaction may be lowered. */
export interface Caller {
  scope?: Scope;
  keyId?: string;
}

/** Stored job parameters carry the effective redaction policy resolved at submit (see redact/policy.ts). */
export type StoredParams = TranscribeParams & { redactionPolicy?: RedactionPolicy };

const SAFE_NAME = /[^A-Za-z0-9._-]+/g;
/** What a folder batch takes as recordings (by name; the worker checks each is audio). */
const RECORDING = /\.(wav|mp3|flac|ogg|opus|m4a|mp4|aac|amr|wma|webm|gsm|au|aif|aiff)$/i;

export class JobService {
  constructor(private readonly options: JobServiceOptions) {}

  /**
   * The model a job will use: the one asked for (which must be installed) or the default. en-us:auto (the
   * default default; 'auto' too) stays in the job until the worker has heard the audio: recognizeFile picks by
   * the audio (telephone band → en-us:telephony) and the worker records the model it used.
   */
  private async chooseModel(requested: string | undefined): Promise<string> {
    const installed = this.options.installedModels();
    if (isAutoModel(requested)) {
      if (installed.length === 0) throw new ServiceError('unavailable', 'No speech model is installed on this server; see /asr/status for the reason.');
      return AUTO_MODEL;
    }
    if (requested) {
      if (!installed.some((m) => m.name === requested)) {
        const names = installed.map((m) => m.name);
        throw invalid(`Model "${requested}" is not installed. Installed: ${names.length > 0 ? names.join(', ') : 'none'} .`, [
          { pointer: '/model', path: 'model', message: `must be one of ${names.join(', ') || '(no model installed)'}` },
        ]);
      }
      return requested;
    }
    if (installed.length === 0) {
      throw new ServiceError('unavailable', 'No speech model is installed on this server; see /asr/status for the reason.');
    }
    const preferred = await this.options.defaultModel();
    if (preferred === AUTO_MODEL) return AUTO_MODEL;
    // The default model set with set-parameter (or SCRUBLINE_DEFAULT_MODEL) is used as set, or the job is refused:
    // another model would decode silently worse (en-us:wideband on 8 kHz calls), which no one asked for.
    if (!installed.some((m) => m.name === preferred)) {
      throw new ServiceError('unavailable', `The default model "${preferred}" (system parameter \`model\` or SCRUBLINE_DEFAULT_MODEL) is not installed; install it, set another with POST /system/set-parameter, or name \`model\` in the request.`);
    }
    return preferred;
  }

  /**
   * Check an upload is usable audio within the limits; the 4xx a client needs when it is not, and a retryable
   * 503 when the service could not tell in time (a busy machine says nothing about the audio).
   */
  private async checkAudio(filePath: string): Promise<AudioFacts> {
    let facts: AudioFacts;
    try {
      facts = await this.options.probe(filePath);
    } catch (error) {
      if (error instanceof BusyError) throw error;
      const reason = (error as { reason?: string }).reason;
      if (reason === 'ffmpeg_missing') throw new ServiceError('unavailable', (error as Error).message);
      if (reason === 'timeout') throw new BusyError(`The service is too busy to read the upload in time (${(error as Error).message}); try again.`, 5);
      if (reason === 'too_long') throw new ServiceError('too_large', (error as Error).message, [], { ...((error as ServiceError).extra ?? {}) });
      if (reason) throw new ServiceError('unprocessable', `The upload is not usable audio (${reason}): ${(error as Error).message}`, [], { reason });
      throw error;
    }
    if (facts.durationSeconds > this.options.maxAudioSeconds) {
      throw new ServiceError('too_large', `The recording lasts ${Math.round(facts.durationSeconds)} s; the limit is ${this.options.maxAudioSeconds} s.`, [], { reason: 'too_long' });
    }
    return facts;
  }

  /**
   * The job's effective redaction policy, resolved now so that a bad kind or an unknown sid is a 400 at
   * submit: the project's requirement plus what the request asks (redact/policy.ts).
   */
  private async policyFor(params: TranscribeParams, caller: Caller = {}): Promise<RedactionPolicy> {
    const kinds = parseKinds(params.types, 'types');
    const project = params.sid !== undefined && this.options.projects ? await this.options.projects.forRedaction(params.sid) : undefined;
    // Insights named by the job must exist in its project and be runnable on a job (issue 18).
    checkJobInsights(params, project?.config);
    return resolvePolicy({
      ask: { kinds, scrubtext: params.scrubtext, scrubaudio: params.scrubaudio, retentionDays: params.retentionPolicy, cueWindows: params.cueWindows },
      project,
      mayLower: caller.scope === 'admin',
    });
  }

  /**
   * Every bucket and endpoint the request names meets the bucket rules (cloud/buckets.ts: never the service's own
   * bucket, never its credentials, endpoints through the target policy, no userinfo): a 400 now, before any row.
   */
  private async checkBuckets<P extends TranscribeParams>(params: P): Promise<P> {
    const named = params.endpoint || params.cloudStoragePath || params.cloudStorageFolder || params.transcriptInput || params.transcriptOutput || params.cloudHosted;
    if (!named) return params;
    if (!this.options.buckets) {
      if (params.cloudStoragePath && /^https?:\/\//i.test(params.cloudStoragePath.trim()) && !params.transcriptOutput && !params.endpoint) return params;
      throw new ServiceError('not_implemented', 'This service has no bucket access configured.');
    }
    // The output folder is kept as resolved now (bucket and prefix in full): the job's record says where its
    // results go, and settings changed later do not move them.
    const { outputFolder } = await this.options.buckets.checkRequest(params);
    return outputFolder ? { ...params, transcriptOutput: outputFolder } : params;
  }

  private async insert(row: Omit<JobRow, 'created_at' | 'updated_at'>, caller: Caller = {}): Promise<JobRow> {
    const now = new Date().toISOString();
    const full: JobRow = { ...row, created_at: now, updated_at: now };
    const policy = (JSON.parse(full.params) as StoredParams).redactionPolicy;
    await this.options.store.transaction(async (tx) => {
      await tx.jobs.insert(full);
      await tx.events.record({ type: 'job', subType: 'queued', subject: full.id, jobId: full.id, status: 'queued', details: { input: full.input_kind, model: full.model } });
      if (policy?.lowered) await tx.events.record(loweredEvent(full.id, policy, caller));
    });
    this.options.onQueued?.();
    return full;
  }

  private baseRow(id: string, params: TranscribeParams, model: string, policy: RedactionPolicy) {
    const stored: StoredParams = { ...params, redactionPolicy: policy };
    const { sealed } = protectCredentials(stored, this.options.box);
    return {
      id,
      status: 'queued',
      // Marked windows are redaction asked for, with or without kinds.
      redaction_status: redacts(policy) || (params.sensitiveWindows?.length ?? 0) > 0 ? 'pending' : 'not_requested',
      priority: priorityValue(params.priority),
      sid: params.sid ?? null,
      tracking_id: params.tracking_id ?? null,
      call_sid: params.callSid ?? null,
      model,
      params: JSON.stringify(sealed),
      record: JSON.stringify({}),
      attempts: 0,
      last_error: null,
      worker_id: null,
      run_id: null,
      lease_until: null,
      audio_seconds: null,
      processing_seconds: null,
      started_at: null,
      completed_at: null,
      delete_after: null,
    };
  }

  /** Refuse a request's notification target now (a live stream checks its after-call job's at its start). */
  checkNotificationTarget(params: TranscribeParams): void {
    checkNotificationTarget(params, this.options.notificationPolicy);
  }

  /** A recording already written to `tempPath`: checked, moved into the job's folder (a blob), queued. */
  async submitAudio(tempPath: string, fileName: string, params: TranscribeParams, caller: Caller = {}): Promise<JobRow> {
    params = await this.checkBuckets(params);
    checkNotificationTarget(params, this.options.notificationPolicy);
    const policy = await this.policyFor(params, caller);
    const model = await this.chooseModel(params.model);
    const facts = await this.checkAudio(tempPath);
    // A mark on a channel the recording does not have cannot be done as asked: refused.
    checkMarks(params.sensitiveWindows, { channels: facts.channels });
    const id = crypto.randomUUID();
    const safeName = (path.basename(fileName).replace(SAFE_NAME, '_') || 'audio').slice(-120);
    const key = blobKey('uploads', id, safeName);
    await storing(() => this.options.blobs.putFile(key, tempPath, { move: true }));
    try {
      return await this.insert(
        { ...this.baseRow(id, params, model, policy), file_name: fileName, audio_path: key, input_kind: 'audio', audio_seconds: facts.durationSeconds },
        caller,
      );
    } catch (error) {
      await this.options.blobs.delete(key).catch(() => {});
      throw error;
    }
  }

  /**
   * A recording named in a bucket (cloudStoragePath): checked as far as it can be without reading it, queued;
   * the worker fetches it (never this process) and fails the job when it is not usable audio.
   */
  async submitRemote(params: TranscribeParams, caller: Caller = {}): Promise<JobRow> {
    params = await this.checkBuckets(params);
    checkNotificationTarget(params, this.options.notificationPolicy);
    const source = parseSource(params.cloudStoragePath!, 'cloudStoragePath', (await this.options.buckets?.settingsFor(params))?.bucket);
    if (source.kind === 'url') {
      try {
        (this.options.notificationPolicy ?? PUBLIC_ONLY).checkUrl(source.url);
      } catch (error) {
        if (error instanceof TargetNotAllowedError) throw invalid(`cloudStoragePath ${error.message.replace(/^notification url/, 'the URL')}`, [{ pointer: '/cloudStoragePath', path: 'cloudStoragePath', message: 'is not an allowed address' }]);
        throw error;
      }
    }
    const policy = await this.policyFor(params, caller);
    const model = await this.chooseModel(params.model);
    checkMarks(params.sensitiveWindows);
    const id = crypto.randomUUID();
    // A presigned URL's query is a credential: kept sealed (cloudStorageUrl), shown without it.
    const stored: TranscribeParams & { cloudStorageUrl?: string } =
            source.kind === 'url'
        ? { ...params, cloudStoragePath: `${source.url.origin}${source.url.pathname}`, cloudStorageUrl: source.url.toString() }
        : { ...withoutKey(params, 'cloudStorageUrl'), cloudStoragePath: sourceText(source) };
    return this.insert({ ...this.baseRow(id, stored, model, policy), file_name: sourceName(source), audio_path: null, input_kind: 'audio' }, caller);
  }

  /** Every recording under a bucket folder (cloudStorageFolder), one job each; the folder is listed now. */
  async submitFolder(params: TranscribeParams, caller: Caller = {}): Promise<JobRow[]> {
    if (!this.options.buckets) throw new ServiceError('not_implemented', 'This service has no bucket access configured.');
    params = await this.checkBuckets(params);
    const folder = parseFolder(params.cloudStorageFolder!, 'cloudStorageFolder', (await this.options.buckets.settingsFor(params)).bucket);
    const bucket = await this.options.buckets.bucket(folder.bucket, params, 'cloudStorageFolder');
    const listed = await storing(() => bucket.list(folder.key)).catch((error: Error & { permanent?: boolean; status?: number }) => {
      if (error.permanent) throw new ServiceError('unprocessable', `The folder s3://${folder.bucket}/${folder.key} could not be listed: ${error.message}`, [], { reason: 'bucket_refused' });
      throw error;
    });
    const recordings = listed.filter((b) => RECORDING.test(b.key) && b.size > 0);
    if (recordings.length === 0) throw new ServiceError('unprocessable', `No recording under s3://${folder.bucket}/${folder.key}.`, [], { reason: 'empty_folder' });
    const rows: JobRow[] = [];
    for (const blob of recordings) {
      rows.push(await this.submitRemote({ ...params, cloudStorageFolder: undefined, cloudStoragePath: `s3://${folder.bucket}/${blob.key}` }, caller));
    }
    return rows;
  }

  /**
   * A text job whose transcript is in a bucket (transcriptInput): checked as far as it can be without reading it,
   * queued; the worker reads it (never this process) into the job's text input, then runs it as any text job.
   */
  async submitRemoteText(params: TranscribeParams, caller: Caller = {}): Promise<JobRow> {
    params = await this.checkBuckets(params);
    checkNotificationTarget(params, this.options.notificationPolicy);
    if (!this.options.buckets) throw new ServiceError('not_implemented', 'This service has no bucket access configured.');
    const ref = parseBucketRef(params.transcriptInput!, 'transcriptInput', (await this.options.buckets.settingsFor(params)).bucket);
    if (ref.key === '' || ref.key.endsWith('/')) {
      throw invalid('transcriptInput names a folder; it names one transcript ("bucket/key").', [{ pointer: '/transcriptInput', path: 'transcriptInput', message: 'must name an object, not a folder' }]);
    }
    const policy = await this.policyFor(params, caller);
    checkMarks(params.sensitiveWindows);
    const id = crypto.randomUUID();
    const stored = { ...params, transcriptInput: `s3://${ref.bucket}/${ref.key}` };
    return this.insert({ ...this.baseRow(id, stored, 'text:input', policy), file_name: params.fileName ?? ref.key.slice(ref.key.lastIndexOf('/') + 1), audio_path: null, input_kind: 'text' }, caller);
  }

  async submitText(params: TranscribeParams, caller: Caller = {}): Promise<JobRow> {
    params = await this.checkBuckets(params);
    checkNotificationTarget(params, this.options.notificationPolicy);
    const policy = await this.policyFor(params, caller);
    checkMarks(params.sensitiveWindows);
    if (!params.text || params.text.trim() === '') {
      throw invalid('A JSON request needs `text` (a transcript) or `jobId` (to resubmit); audio goes as multipart/form-data.', [
        { pointer: '/text', path: 'text', message: 'is required and must not be empty' },
      ]);
    }
    const id = crypto.randomUUID();
    // The text goes to the job's folder, never into the row (unredacted input is not written to the store).
    await storing(() => writeTextInput(this.options.blobs, id, params.text!));
    try {
      return await this.insert({ ...this.baseRow(id, withoutText(params), 'text:input', policy), file_name: params.fileName ?? null, audio_path: null, input_kind: 'text' }, caller);
    } catch (error) {
      await this.options.blobs.deletePrefix(`${jobFolder(id)}/`).catch(() => 0);
      throw error;
    }
  }

  /**
   * A resubmitted text job's input: new text replaces the kept file; without it the kept file (or the text a
   * row written before the file holds) is used, and a job whose text was redacted or failed needs it sent
   * again. Answers the parameters without the text, which never goes into the row.
   */
  private async resubmittedText(job: JobRow, params: TranscribeParams): Promise<TranscribeParams> {
    const legacy = (JSON.parse(job.params) as TranscribeParams).text;
    const blobs = this.options.blobs;
    if (params.text?.trim()) await storing(() => writeTextInput(blobs, job.id, params.text!));
    else if (legacy?.trim() && !(await storing(() => hasTextInput(blobs, job.id)))) await storing(() => writeTextInput(blobs, job.id, legacy));
    if (!(await storing(() => hasTextInput(blobs, job.id)))) {
      throw new ServiceError('conflict', `Job ${job.id}'s text was redacted and not kept; send the text again with the new parameters.`);
    }
    return withoutText(params);
  }

  /**
   * Run a finished job again with new parameters, on its stored input. Its redaction is the union of what it
   * had and what the new parameters resolve to: a resubmit never lowers a job's redaction.
   */
  async resubmit(jobId: string, params: TranscribeParams, caller: Caller = {}): Promise<JobRow> {
    const job = await this.options.store.jobs.get(jobId);
    if (!job) throw notFound(`no job "${jobId}"`);
    if (!TERMINAL.includes(job.status as never)) {
      throw new ServiceError('conflict', `Job ${jobId} is ${job.status}; only a completed, failed or cancelled job can be resubmitted.`);
    }
    if (job.input_kind === 'text') params = await this.resubmittedText(job, params);
    const previous = withoutText(JSON.parse(job.params) as StoredParams);
    const { redactionPolicy: had, ...before } = previous;
    const merged = { ...before, ...params, jobId: undefined, redactionPolicy: undefined };
    // An admin's cueWindows: false is not inherited: a resubmit that does not ask for it again gets the defaults.
    if (params.cueWindows === undefined && merged.cueWindows === false) delete merged.cueWindows;
    // Marked windows only add up: a resubmit keeps the job's marks and adds its own.
    checkMarks(params.sensitiveWindows);
    const marks = [...(before.sensitiveWindows ?? []), ...(params.sensitiveWindows ?? [])];
    if (marks.length > 0) merged.sensitiveWindows = marks;
    checkNotificationTarget(merged, this.options.notificationPolicy);
    const checked = await this.checkBuckets(merged);
    // A job from before policies were recorded had what its parameters resolve to now; when they no longer
    // resolve, a job that had redaction keeps every kind (more, never less).
    const old =
      storedPolicy(had) ??
      (await this.policyFor(before).catch(() => (job.redaction_status === 'not_requested' ? undefined : storedPolicy({ audio: before.scrubaudio === true }))));
    const fresh = await this.policyFor(merged, caller);
    const policy = old ? unionPolicies(old, fresh) : fresh;
    const model = job.input_kind === 'text' ? 'text:input' : await this.chooseModel(params.model ?? (previous.model as string | undefined));
    const base = this.baseRow(jobId, checked, model, policy);
    const moved = await this.options.store.jobs.setStatus(jobId, TERMINAL, 'queued', {
      params: base.params,
      model,
      priority: base.priority,
      redaction_status: base.redaction_status,
      attempts: 0,
      last_error: null,
      worker_id: null,
      run_id: null,
      lease_until: null,
      started_at: null,
      completed_at: null,
      delete_after: null,
    });
    if (!moved) throw new ServiceError('conflict', `Job ${jobId} changed state meanwhile; try again.`);
    // It owes its redaction again: not searchable until that run completes it.
    await this.options.store.search.remove('job', jobId);
    await this.options.store.events.record({ type: 'job', subType: 'resubmitted', subject: jobId, jobId, status: 'queued' });
    this.options.onQueued?.();
    return (await this.options.store.jobs.get(jobId))!;
  }

  async get(jobId: string): Promise<JobRow> {
    const job = await this.options.store.jobs.get(jobId);
    if (!job) throw notFound(`no job "${jobId}"`);
    return job;
  }

  list(query: JobListQuery) {
    return this.options.store.jobs.list(query);
  }

  async cancel(jobId: string): Promise<JobRow> {
    const job = await this.get(jobId);
    if (TERMINAL.includes(job.status as never)) throw new ServiceError('conflict', `Job ${jobId} is already ${job.status}.`);
    const moved = await this.options.store.transaction(async (tx) => {
      const now = new Date();
      const changed = await tx.jobs.setStatus(jobId, ['queued', 'processing'], 'cancelled', {
        worker_id: null,
        run_id: null,
        lease_until: null,
        completed_at: now.toISOString(),
        delete_after: deleteAfter(JSON.parse(job.params) as TranscribeParams, now),
      });
      if (!changed) return false;
      const event = await tx.events.record({ type: 'job', subType: 'cancelled', subject: jobId, jobId, status: 'cancelled' });
      await this.options.onTerminal?.(tx, (await tx.jobs.get(jobId))!, event);
      return true;
    });
    if (!moved) throw new ServiceError('conflict', `Job ${jobId} finished meanwhile.`);
    this.options.onCancelled?.(job);
    this.options.onStopped?.(jobId, 'the job was cancelled');
    this.options.afterTerminal?.();
    return this.get(jobId);
  }

  /**
   * Remove a job with its audio and results (those written to its output folder too, unless `keepExported`:
   * removeRedactedJob). A running job is cancelled first.
   */
  async delete(jobId: string, options: { keepExported?: boolean } = {}): Promise<void> {
    const job = await this.get(jobId);
    if (!TERMINAL.includes(job.status as never)) await this.cancel(jobId).catch(() => {});
    this.options.onStopped?.(jobId, 'the job was deleted');
    // The job's folder first: its recording, redacted copy or text input, whatever is left of them. A store
    // that cannot be reached leaves the job as it was (503; the retention sweep tries again), never a row
    // gone with its recording still kept.
    await storing(async () => {
      await this.options.blobs.deletePrefix(`${jobFolder(jobId)}/`);
      if (job.audio_path && keyFolder(job.audio_path) !== jobFolder(jobId)) await this.options.blobs.deletePrefix(`${keyFolder(job.audio_path)}/`);
    });
    // Its results and deliveries go with it (foreign keys); its events stay, as the audit trail.
    await this.options.store.jobs.delete(jobId);
    await this.options.onDeleted?.(job);
    await this.options.store.events.record({ type: 'job', subType: 'deleted', subject: jobId, jobId, status: 'deleted' });
    // What it wrote to a client's bucket goes after, in the background: that bucket's answer (403, 404, out of
    // reach) is the customer's, never a reason the service keeps its own data; what was left is reported.
    if (!options.keepExported && this.options.onDeleting) this.track(this.removeExported(job, this.options.onDeleting));
  }

  private readonly background = new Set<Promise<void>>();

  private track(work: Promise<void>): void {
    this.background.add(work);
    void work.finally(() => this.background.delete(work));
  }

  /** The background work started by deletes, settled (tests, and a clean close). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.background]);
  }

  private async removeExported(job: JobRow, remove: (job: JobRow) => Promise<string | undefined>): Promise<void> {
    const record = (subType: string, message?: string, where?: string) =>
      this.options.store.events.record({ type: 'job', subType, subject: job.id, jobId: job.id, status: 'deleted', ...(message && { message }), ...(where && { details: { folder: where } }) });
    try {
      const where = await remove(job);
      if (where) await record('exported_removed', undefined, where);
    } catch (error) {
      await record('exported_not_removed', (error as Error).message).catch(() => {});
    }
  }

  /** Wait up to `seconds` for a job to reach a terminal state; answers the job as it is then. */
  async waitFor(jobId: string, seconds: number): Promise<JobRow> {
    const deadline = Date.now() + seconds * 1000;
    let job = await this.get(jobId);
    while (!TERMINAL.includes(job.status as never) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, Math.min(200, Math.max(10, deadline - Date.now()))));
      job = await this.get(jobId);
    }
    return job;
  }
}

/** The object without one key (a client cannot hand in the sealed URL of another source). */
function withoutKey<T extends object>(value: T, key: string): T {
  const { [key]: _dropped, ...rest } = value as Record<string, unknown>;
  return rest as T;
}

/** A store that cannot be reached is the service's trouble, not the client's: 503 with Retry-After. */
async function storing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BlobUnavailableError) {
      throw new ServiceError('unavailable', `The storage is unavailable (${error.message}); try again.`, [], { reason: 'storage_unavailable', retryable: true, retryAfter: 30 });
    }
    throw error;
  }
}

/** The event that records an admin key lowering what a project requires. */
function loweredEvent(jobId: string, policy: RedactionPolicy, caller: Caller) {
  return {
    type: 'job' as const,
    subType: 'redaction_lowered',
    subject: jobId,
    jobId,
    status: 'queued',
    message:
      policy.windows === 'off'
        ? `an admin-scope key turned off the default redaction of spoken numbers (cueWindows: false)${policy.sid ? ` for project ${policy.sid}` : ''}`
        : `an admin-scope key lowered the redaction project ${policy.sid} requires`,
    details: {
      sid: policy.sid,
      version: policy.version,
      kinds: policy.kinds,
      text: policy.text,
      audio: policy.audio,
      ...(policy.windows && { windows: policy.windows }),
      ...(caller.keyId && { keyId: caller.keyId }),
    },
  };
}
