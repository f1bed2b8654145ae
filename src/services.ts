// The service's parts, wired once from configuration and shared by the HTTP API, the CLI and workers.
import { analyseJob } from './conversation/jobAnalysis.js';
import type { Logger } from 'pino';
import { findSensitiveWindows } from './redact/windows/sensitiveWindows.js';
import { type InvalidationBus, localBus, redisBus } from './cache/invalidationBus.js';
import { Conversations } from './cache/conversations.js';
import { inspectUpload } from './audio/inspectUpload.js';
import { AdmissionLimiter } from './audio/limiter.js';
import { installedModels } from './engine/models.js';
import { recognizeFile } from './engine/recognize.js';
import { sharedPool } from './engine/pool.js';
import { closeRedactionPool } from './redact/offload/index.js';
import { JobRecords } from './jobs/jobRecords.js';
import { JobService } from './jobs/jobService.js';
import { JobWorker, type RecognizeFile } from './jobs/worker.js';
import { applyAutoDelete, RetentionSweeper } from './jobs/retention.js';
import { type JobWindowFinder, jobRedactor } from './jobs/jobRedaction.js';
import { sweepOrphanUploads } from './jobs/orphanUploads.js';
import { renderMetaForJob } from './jobs/renderMeta.js';
import { jobRecord } from './jobs/jobRecord.js';
import { notificationTarget } from './jobs/notificationTarget.js';
import { loadWebhookSecret, NotificationOutbox, TargetPolicy } from './jobs/notifications/index.js';
import type { TranscribeParams } from './jobs/request.js';
import type { EventRecord } from './schema/resources/eventRecord.js';
import type { JobRow } from './store/tables.js';
import { toTranscriptShape, toVendorATranscript, utterancesFor } from './transcript/index.js';
import { Parameters } from './cache/parameters.js';
import { ProjectConfigs } from './cache/projectConfigs.js';
import type { Config } from './config.js';
import { Metrics } from './observability/metrics.js';
import { ProcessHeartbeat } from './jobs/processHeartbeat.js';
import { loadSecretBox, type SecretBox } from './security/secretBox.js';
import { openStore, type Repositories, type Store } from './store/index.js';

export interface Services {
  jobs: JobService;
  jobRecords: JobRecords;
  /** The in-process job worker; started by `serve` (unless SCRUBLINE_WORKERS=0) and by `worker`. */
  worker: JobWorker;
  /** Notification deliveries; sending runs where workers run. */
  outbox: NotificationOutbox;
  /** Deletes jobs whose retention ran out; runs where workers run. */
  retention: RetentionSweeper;
  /** This process's capacity in the database, for cluster-wide figures; started where workers run. */
  heartbeat: ProcessHeartbeat;
  config: Config;
  store: Store;
  box: SecretBox;
  bus: InvalidationBus;
  projects: ProjectConfigs;
  parameters: Parameters;
  conversations: Conversations;
  metrics: Metrics;
  /** Admission for the costly part of an upload: probing/measuring its audio, unpacking its zip. */
  uploads: { probe: AdmissionLimiter; unzip: AdmissionLimiter };
  startedAt: Date;
  close(): Promise<void>;
}

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
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, databaseSchema: config.databaseSchema });
  // Uploads cut short by a crash of an earlier run are not kept.
  const orphans = sweepOrphanUploads(config.dataDir);
  if (orphans > 0) logger.info({ removed: orphans }, 'deleted uploads left in the temp dir by requests that never finished');
  const box = loadSecretBox(config.dataDir, config.secretKey);
  let bus: InvalidationBus;
  try {
    bus = config.redisUrl
      ? await redisBus(config.redisUrl, (error) => logger.warn({ err: error.message }, 'redis connection problem'))
      : localBus();
  } catch (error) {
    await store.close();
    throw error;
  }
  const projects = new ProjectConfigs(store, bus, config.configCacheMs);
  const parameters = new Parameters(store, projects, box, config.dataDir);
  // Keyed hashes (the Hash mask) use one key derived from the service's secret, so values match across calls.
  const redactionHashKey = box.derive('redaction-hash');
  const conversations = new Conversations(store, box, projects, redactionHashKey);
  const metrics = new Metrics();
  // Notification targets: public hosts, plus what the operator allows (checked at submit and at each connect).
  const notificationPolicy = new TargetPolicy(config.webhookAllow);
  const outbox = new NotificationOutbox({
    db: store.database.db,
    policy: notificationPolicy,
    box,
    secret: loadWebhookSecret(config.dataDir, config.webhookSecret),
    logger,
    onDelivered: () => metrics.webhookSettled('delivered'),
    onFailed: () => metrics.webhookSettled('failed'),
    ...(config.webhookScheduleMs && { schedule: config.webhookScheduleMs, pollMs: 50 }),
  });
  const jobRecords = new JobRecords({
    store,
    box,
    shapes: (row, transcript) => {
      const meta = renderMetaForJob(row, box);
      const utterances = utterancesFor(transcript, meta);
      return {
        vendorATranscript: toVendorATranscript(transcript, utterances, meta),
        transcript: toTranscriptShape(transcript, utterances, meta),
      };
    },
    deliveries: (jobId) => outbox.deliveriesFor(jobId),
    analysis: async (row, vendorATranscript) => {
      const params = JSON.parse(row.params) as TranscribeParams & { analytics?: boolean };
      const project = row.sid ? await projects.current(row.sid) : undefined;
      return analyseJob(vendorATranscript, params, project?.config);
    },
  });
  // The terminal event, with the job (without its transcripts), goes to the job's notification target.
  const notifyTerminal = async (tx: Repositories, row: JobRow, event: EventRecord) => {
    const target = notificationTarget(JSON.parse(row.params) as TranscribeParams);
    if (!target) return;
    const processJob = jobRecord(row, box);
    await outbox.enqueue(tx.deliveries, { jobId: row.id, ...target, payload: { ...event, processJob } });
  };
  const worker = new JobWorker({
    store,
    dataDir: config.dataDir,
    recognize: overrides.recognize ?? recognizeFile,
    logger,
    concurrency: config.workers,
    leaseMs: config.jobLeaseMs,
    maxAudioSeconds: config.limits.audioSeconds,
    engineParams: (sid) => parameters.engineParams(sid),
    onTerminal: notifyTerminal,
    afterTerminal: () => outbox.kick(),
    redact: jobRedactor({
      projects,
      hashKey: redactionHashKey,
      dataDir: config.dataDir,
      engineParams: (sid) => parameters.engineParams(sid),
      // Cue phrases and number-shaped speech open windows redacted whatever was recognized in them (issue 17).
      // A project turns them on (`cueWindows.enabled: true`): a window redacts the whole answer, more than the kinds
      // asked (a name given with a card number goes with it), which a project must choose knowingly.
      findWindows:
        overrides.findWindows ??
        ((transcript, kinds, project) => (project?.config.cueWindows?.enabled === true ? findSensitiveWindows(transcript, { kinds, project: project.config.cueWindows }) : [])),
      // The redacted copy heard again by the recognizer the worker uses, with the model the job used.
      recheck: async (file, model, signal) => (overrides.recognize ?? recognizeFile)(file, { model, params: await parameters.engineParams(), maxSeconds: config.limits.audioSeconds, signal }),
    }),
    onFinished: async (row) => {
      // Cancellations are counted by the process that cancels (JobService.onCancelled), not by the run it ended.
      if (row.status === 'completed' || row.status === 'failed') {
        metrics.jobFinished(row.status, row.model, row.audio_seconds, row.processing_seconds, queueWaitSeconds(row));
      }
      await applyAutoDelete(row, store.jobs, config.dataDir);
    },
  });
  const jobs = new JobService({
    store,
    box,
    dataDir: config.dataDir,
    maxAudioSeconds: config.limits.audioSeconds,
    probe: (file) => inspectUpload(file, { maxSeconds: config.limits.audioSeconds }),
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
  const retention = new RetentionSweeper(store.jobs, (id) => jobs.delete(id), logger);
  return {
    retention,
    heartbeat,
    jobs,
    jobRecords,
    worker,
    outbox,
    config,
    store,
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
      retention.stop();
      await worker.stop();
      await heartbeat.stop();
      conversations.stopIdleSweep();
      await outbox.stop();
      await bus.close();
      await store.close();
      await closeRedactionPool();
    },
  };
}
