// The service's parts, wired once from configuration and shared by the HTTP API, the CLI and workers.
import path from 'node:path';
import { analyseJob } from './jobs/jobAnalysis.js';
import { keepJobInsightHits } from './jobs/jobInsightHits.js';
import { Backfill } from './jobs/backfill.js';
import type { JobInsightOutcome } from './conversation/insights/jobRedactions.js';
import type { Logger } from 'pino';
import { type InvalidationBus, localBus, redisBus } from './cache/invalidationBus.js';
import { Conversations } from './cache/conversations.js';
import { inspectUpload } from './audio/inspectUpload.js';
import { AdmissionLimiter } from './audio/limiter.js';
import { installedModels } from './engine/models.js';
import { recognizeFile } from './engine/recognize.js';
import { DecodeCheck } from './engine/decodeCheck.js';
import { sharedPool } from './engine/pool.js';
import { closeSharedStreamPool } from './engine/streamPool.js';
import { StreamRegistry } from './stream/registry.js';
import { closeRedactionPool, openRedactionPool, sensitiveWindowsOffLoop } from './workers/index.js';
import { JobRecords } from './jobs/jobRecords.js';
import { OriginalsGuard } from './jobs/originalsGuard.js';
import { JobService, type StoredParams } from './jobs/jobService.js';
import { storedPolicy } from './redact/policy.js';
import { requireTaggerModel } from './redact/tagger/model.js';
import { windowLevel } from './redact/windows/windowLevel.js';
import { JobWorker, type RecognizeFile } from './jobs/worker.js';
import { applyAutoDelete, RetentionSweeper } from './jobs/retention.js';
import { type JobWindowFinder, jobRedactor } from './jobs/jobRedaction.js';
import { OrphanUploadSweep, sweepOrphanUploads } from './jobs/orphanUploads.js';
import { stagingDir, sweepDeadStaging } from './jobs/stagingDir.js';
import { renderMetaForJob } from './jobs/renderMeta.js';
import { jobRecord } from './jobs/jobRecord.js';
import { notificationTarget } from './jobs/notificationTarget.js';
import { loadWebhookSecret, NotificationOutbox, TargetPolicy } from './jobs/notifications/index.js';
import { notificationContents } from './jobs/notifications/contents.js';
import type { TranscribeParams } from './jobs/request.js';
import type { EventRecord } from './schema/resources/eventRecord.js';
import type { JobRow } from './store/tables.js';
import { toTranscriptShape, toVendorATranscript, utterancesFor } from './transcript/index.js';
import type { Transcript } from './transcript/types.js';
import type { ProcessJob } from './schema/resources/processJob.js';
import { Parameters } from './cache/parameters.js';
import { ProjectConfigs } from './cache/projectConfigs.js';
import type { Config } from './config.js';
import { Metrics } from './observability/metrics.js';
import { ProcessHeartbeat } from './jobs/processHeartbeat.js';
import { loadSecretBox, type SecretBox } from './security/secretBox.js';
import { openStore, type Repositories, type Store } from './store/index.js';
import { type BlobStore, openBlobStore } from './store/blobs/index.js';
import { streamOfJob } from './stream/transcriptKeeper.js';
import { CloudBuckets } from './jobs/cloud/buckets.js';
import { sourceFetcher } from './jobs/cloud/fetchSource.js';
import { textFetcher } from './jobs/cloud/fetchText.js';
import { removeExported, resultExporter } from './jobs/cloud/exportResults.js';

export interface Services {
  jobs: JobService;
  jobRecords: JobRecords;
  /** Who may read a job's originals (jobs/originalsGuard.ts): every path that hands out audio or transcripts asks it. */
  originals: OriginalsGuard;
  /** The in-process job worker; started by `serve` (unless SCRUBLINE_WORKERS=0) and by `worker`. */
  worker: JobWorker;
  /** Notification deliveries; sending runs where workers run. */
  outbox: NotificationOutbox;
  /** Deletes jobs whose retention ran out; runs where workers run. */
  retention: RetentionSweeper;
  /** Brings calls stored before search and insight counts level (jobs/backfill.ts); started where workers run. */
  backfill: Backfill;
  /** This process's capacity in the database, for cluster-wide figures; started where workers run. */
  heartbeat: ProcessHeartbeat;
  /** Live streams of this process (admission counted across the cluster, idle timeouts). */
  streams: StreamRegistry;
  /** Key of the Hash mask (the same across calls and processes). */
  redactionHashKey: string;
  config: Config;
  store: Store;
  /** Where recordings, redacted copies and text inputs are kept: the data directory or a bucket. */
  blobs: BlobStore;
  box: SecretBox;
  bus: InvalidationBus;
  projects: ProjectConfigs;
  parameters: Parameters;
  conversations: Conversations;
  metrics: Metrics;
  /** Admission for the costly part of an upload: probing/measuring its audio, unpacking its zip. */
  uploads: { probe: AdmissionLimiter; unzip: AdmissionLimiter };
  startedAt: Date;
  /** Whether the engine decodes (GET /ready): a tiny decode, its answer cached briefly. */
  decodeCheck: DecodeCheck;
  close(): Promise<void>;
}

/** The vendorA transcript a job's analysis is computed from. */
type JobAnalysisInput = ProcessJob['vendorATranscript'];

/** Seconds from submission to the start of the job's last attempt (null when it never started). */
function queueWaitSeconds(row: JobRow): number | null {
  if (!row.started_at) return null;
  return (Date.parse(row.started_at) - Date.parse(row.created_at)) / 1000;
}

/** Parts a test replaces (a recognizer whose timing it controls). */
export interface ServiceOverrides {
  recognize?: RecognizeFile;
  /** Sensitive-window finder of job redaction (cue phrases, number-shaped speech); none when absent. */
  findWindows?: JobWindowFinder;
}

export async function createServices(config: Config, logger: Logger, overrides: ServiceOverrides = {}): Promise<Services> {
  // The PII tagger's model is generated at install (./run build), not kept in git: a service without it would fail
  // its first redaction, so it does not start, and says which command builds it.
  requireTaggerModel();
  // A service started in a process where an earlier one stopped: its redaction tasks may start a pool again.
  openRedactionPool();
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, databaseSchema: config.databaseSchema });
  // Uploads cut short by a crash of an earlier run are not kept.
  const orphans = await sweepOrphanUploads(config.dataDir);
  if (orphans > 0) logger.info({ removed: orphans }, 'deleted uploads left in the temp dir by requests that never finished');
  // ... and those of requests of this run, while it runs.
  const orphanSweep = new OrphanUploadSweep(config.dataDir, logger, config.orphanSweepMs);
  const box = loadSecretBox(config.dataDir, config.secretKey);
  const blobs = openBlobStore(config.blobs, config.dataDir);
  // A run's files on this machine (a recording staged from a bucket, a redacted copy being checked).
  const staged = sweepDeadStaging(config.dataDir);
  if (staged > 0) logger.info({ removed: staged }, 'deleted the staged files of processes that are gone');
  const runFiles = stagingDir(config.dataDir);
  let bus: InvalidationBus;
  try {
    bus = config.redisUrl
      ? await redisBus(config.redisUrl, (error) => logger.warn({ err: error.message }, 'redis connection problem'))
      : localBus();
  } catch (error) {
    await store.close();
    throw error;
  }
  const projects = new ProjectConfigs(store, bus, box, config.configCacheMs);
  // Hosts reached on a request's behalf (notification targets, recording URLs, bucket endpoints): public hosts,
  // plus what the operator allows (checked at submit and at each connect).
  const notificationPolicy = new TargetPolicy(config.webhookAllow);
  const parameters = new Parameters(store, projects, box, config.dataDir, undefined, notificationPolicy);
  // Keyed hashes (the Hash mask) use one key derived from the service's secret, so values match across calls.
  const redactionHashKey = box.derive('redaction-hash');
  const conversations = new Conversations(store, box, projects, redactionHashKey);
  // Clients' buckets (recordings in, results out): credentials of the job, its project or the system.
  const buckets = new CloudBuckets({ box, settings: (sid) => parameters.cloudSettings(sid), store: config.blobs, policy: notificationPolicy });
  const probeUpload = (file: string) => inspectUpload(file, { maxSeconds: config.limits.audioSeconds });
  const metrics = new Metrics();
  const outbox = new NotificationOutbox({
    db: store.database.db,
    policy: notificationPolicy,
    box,
    secret: loadWebhookSecret(config.dataDir, config.webhookSecret),
    // A project's own signing secrets (set-parameter webhookSecrets with its sid), else the system's.
    secretsFor: async (jobId) => parameters.webhookSecrets((await store.jobs.get(jobId))?.sid),
    logger,
    onDelivered: () => metrics.webhookSettled('delivered'),
    onFailed: () => metrics.webhookSettled('failed'),
    ...(config.webhookScheduleMs && { schedule: config.webhookScheduleMs, pollMs: 50 }),
  });
  const originals = new OriginalsGuard({ store, projects });
  const jobShapes = (row: JobRow, transcript: Transcript) => {
    const meta = renderMetaForJob(row, box);
    const utterances = utterancesFor(transcript, meta);
    return {
      vendorATranscript: toVendorATranscript(transcript, utterances, meta),
      transcript: toTranscriptShape(transcript, utterances, meta),
    };
  };
  const jobAnalysis = async (row: JobRow, vendorATranscript: JobAnalysisInput) => {
    const params = JSON.parse(row.params) as TranscribeParams & { analytics?: boolean };
    const project = row.sid ? await projects.current(row.sid) : undefined;
    // What the job's redacting insights found, in its redaction step (jobRedaction.ts).
    const found = ((await store.jobs.redaction(row.id)) as { insights?: JobInsightOutcome[] } | undefined)?.insights ?? [];
    // Loudness per channel, measured from the recording when the job ran (issue 35).
    const loudness = ((await store.jobs.result(row.id)) as Transcript | undefined)?.loudness;
    return analyseJob(vendorATranscript, params, project?.config, found, loudness);
  };
  const jobRecords = new JobRecords({
    store,
    box,
    originals,
    shapes: jobShapes,
    deliveries: (jobId) => outbox.deliveriesFor(jobId),
    deliveriesOfJobs: (jobIds) => outbox.deliveriesForJobs(jobIds),
    analysis: jobAnalysis,
  });
  // The terminal event, with the job (without its transcripts), goes to the job's notification target.
  const notifyTerminal = async (tx: Repositories, row: JobRow, event: EventRecord) => {
    const target = notificationTarget(JSON.parse(row.params) as TranscribeParams);
    if (!target) return;
    const processJob = jobRecord(row, box);
    const params = JSON.parse(row.params) as TranscribeParams;
    const contents = params.notification?.contents;
    const extra = contents?.length
      ? notificationContents({
          jobId: row.id,
          contents,
          status: row.status,
          redactionStatus: row.redaction_status,
          transcript: row.status === 'completed' ? ((await tx.jobs.result(row.id)) as Transcript | undefined) : undefined,
          meta: renderMetaForJob(row, box),
        })
      : {};
    await outbox.enqueue(tx.deliveries, { jobId: row.id, ...target, payload: { ...event, processJob, ...extra } });
  };
  const worker = new JobWorker({
    store,
    blobs,
    tempDir: runFiles,
    recognize: overrides.recognize ?? recognizeFile,
    logger,
    concurrency: config.workers,
    leaseMs: config.jobLeaseMs,
    maxAudioSeconds: config.limits.audioSeconds,
    engineParams: (sid) => parameters.engineParams(sid),
    onTerminal: notifyTerminal,
    afterTerminal: () => outbox.kick(),
    storageRetryMs: config.storageRetryMs,
    clientBucketMaxWaits: config.clientBucketMaxWaits,
    fetchSource: sourceFetcher({ blobs, buckets, box, tempDir: runFiles, policy: notificationPolicy, maxBytes: config.limits.uploadBytes, probe: probeUpload }),
    fetchText: textFetcher({ blobs, buckets, box, maxBytes: config.limits.jsonBodyBytes }),
    exportResults: resultExporter({ blobs, buckets, box }),
    redact: jobRedactor({
      projects,
      hashKey: redactionHashKey,
      blobs,
      tempDir: runFiles,
      engineParams: (sid) => parameters.engineParams(sid),
      // Cue phrases and number-shaped speech open windows redacted whatever was recognized in them (issue 17).
      // Whenever a number kind is redacted the number-speech layers and the payment cues run with no opt-in
      // (issue 31, redact/windows/windowLevel.ts); a project's `cueWindows.enabled: true` or a job's
      // `cueWindows: true` adds every kind's cues (a window redacts the whole answer, a name given with a card
      // number goes with it); only an admin turns the defaults off.
      findWindows:
        overrides.findWindows ??
        ((transcript, kinds, project, params) => {
          const level = windowLevel(project?.config.cueWindows, storedPolicy((params as StoredParams).redactionPolicy)?.windows ?? (params.cueWindows === true ? 'full' : undefined));
          // A pass over every word of the call: off the event loop when the call is long.
          return level === 'off' ? [] : sensitiveWindowsOffLoop(transcript, kinds, project?.config.cueWindows, level);
        }),
      // The redacted copy heard again by the recognizer the worker uses, with the model the job used.
      recheck: async (file, model, signal) => (overrides.recognize ?? recognizeFile)(file, { model, params: await parameters.engineParams(), maxSeconds: config.limits.audioSeconds, signal }),
      recheckRounds: config.recheckRounds,
    }),
    onFinished: async (row) => {
      // Cancellations are counted by the process that cancels (JobService.onCancelled), not by the run it ended.
      if (row.status === 'completed' || row.status === 'failed') {
        metrics.jobFinished(row.status, row.model, row.audio_seconds, row.processing_seconds, queueWaitSeconds(row));
      }
      // Categories over time (issue 35): a completed job that asked for analysis keeps its insight results.
      if (row.status === 'completed' && row.insights_completed_at) {
        await keepJobInsightHits(store, row, (transcript) => jobAnalysis(row, jobShapes(row, transcript).vendorATranscript)).catch((error: Error) =>
          logger.warn({ err: error, jobId: row.id }, 'insight results of the job not kept'),
        );
      }
      await applyAutoDelete(row, store.jobs, blobs);
      // removeRedactedJob: the results are in the client's bucket; the service keeps nothing of the job.
      const params = JSON.parse(row.params) as TranscribeParams;
      if (row.status === 'completed' && params.removeRedactedJob === true && (params.transcriptOutput || params.cloudStoragePath || params.cloudHosted)) {
        await jobs.delete(row.id, { keepExported: true });
      }
    },
  });
  const jobs = new JobService({
    store,
    box,
    blobs,
    maxAudioSeconds: config.limits.audioSeconds,
    probe: probeUpload,
    buckets,
    onDeleting: (row) => removeExported(row, buckets),
    onDeleted: async (row) => {
      const streamId = streamOfJob(row);
      if (streamId) await store.streamMessages.deleteStream(streamId);
    },
    installedModels,
    defaultModel: async () => String((await parameters.engineParams()).model),
    projects,
    notificationPolicy,
    onQueued: () => worker.poke(),
    onStopped: (jobId, reason) => void worker.abort(jobId, reason),
    onTerminal: notifyTerminal,
    afterTerminal: () => outbox.kick(),
    onCancelled: (row) => metrics.jobFinished('cancelled', row.model, null, null),
  });
  const heartbeat = new ProcessHeartbeat({
    store,
    id: worker.id,
    logger,
    load: () => ({ jobSlots: config.workers, jobsRunning: worker.busy, maxStreams: config.limits.maxStreams, decoders: sharedPool().stats() }),
  });
  metrics.watch({
    jobsByStatus: () => store.jobs.countByStatus(),
    webhookBacklog: async () => {
      const counts = await outbox.counts();
      return counts.pending + counts.sending;
    },
    decoders: () => sharedPool().stats(),
    worker: () => ({ running: worker.busy, slots: heartbeat.active ? config.workers : 0 }),
  });
  const retention = new RetentionSweeper(store, (id) => jobs.delete(id), logger);
  const backfill = new Backfill({
    store,
    logger,
    analysisOf: async (jobId, transcript) => {
      const row = await store.jobs.get(jobId);
      if (!row) return {};
      return jobAnalysis(row, jobShapes(row, transcript).vendorATranscript);
    },
  });
  // /ready decodes half a second with the default model, at most once per 30 s (the answer is shared meanwhile).
  const decodeCheck = new DecodeCheck({ model: async () => String((await parameters.engineParams()).model), ttlMs: 30_000 });
  const streams = new StreamRegistry({ store, processId: worker.id, maxStreams: config.limits.maxStreams, totalStreams: config.limits.totalStreams, logger, metrics });
  orphanSweep.start();
  return {
    decodeCheck,
    retention,
    backfill,
    heartbeat,
    streams,
    redactionHashKey,
    jobs,
    jobRecords,
    originals,
    worker,
    outbox,
    config,
    store,
    blobs,
    box,
    bus,
    projects,
    parameters,
    conversations,
    metrics,
    uploads: {
      probe: new AdmissionLimiter({ name: 'checking uploads', concurrency: config.uploads.probeConcurrency, queue: config.uploads.probeQueue }),
      unzip: new AdmissionLimiter({ name: 'unpacking zips', concurrency: config.uploads.unzipConcurrency, queue: 0 }),
    },
    startedAt: new Date(),
    async close() {
      // Redaction tasks in flight get a short grace (CLOSE_GRACE_MS), then their workers are stopped: a job's run
      // cut short is left to be tried again, a request is answered 503. Started first, so that nothing below
      // waits on a task that may run for a long time.
      const redaction = closeRedactionPool();
      // Live calls end first: each one's recording becomes its job while the store is still open.
      await streams.closeAll('the server is shutting down');
      await orphanSweep.stop();
      await closeSharedStreamPool();
      retention.stop();
      await backfill.stop();
      await worker.stop();
      await heartbeat.stop();
      conversations.stopIdleSweep();
      await outbox.stop();
      await jobs.settled();
      await bus.close();
      await store.close();
      (blobs as { destroy?: () => void }).destroy?.();
      buckets.close();
      await redaction;
      // A task started while closing (a live call's end) ran on a new pool: stopped too.
      await closeRedactionPool();
    },
  };
}
