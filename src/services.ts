// The service's parts, wired once from configuration and shared by the HTTP API, the CLI and workers.
import type { Logger } from 'pino';
import { type InvalidationBus, localBus, redisBus } from './cache/invalidationBus.js';
import { Conversations } from './cache/conversations.js';
import { probeAudio } from './audio/probe.js';
import { installedModels } from './engine/models.js';
import { recognizeFile } from './engine/recognize.js';
import { sharedPool } from './engine/pool.js';
import { closeRedactionPool } from './redact/offload/index.js';
import { JobRecords } from './jobs/jobRecords.js';
import { JobService } from './jobs/jobService.js';
import { JobWorker } from './jobs/worker.js';
import { applyAutoDelete, RetentionSweeper } from './jobs/retention.js';
import { jobRedactor } from './jobs/jobRedaction.js';
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
  config: Config;
  store: Store;
  box: SecretBox;
  bus: InvalidationBus;
  projects: ProjectConfigs;
  parameters: Parameters;
  conversations: Conversations;
  metrics: Metrics;
  startedAt: Date;
  close(): Promise<void>;
}

export async function createServices(config: Config, logger: Logger): Promise<Services> {
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
  metrics.watchJobs(() => store.jobs.countByStatus(), () => sharedPool().stats());
  // Notification targets: public hosts, plus what the operator allows (checked at submit and at each connect).
  const notificationPolicy = new TargetPolicy(config.webhookAllow);
  const outbox = new NotificationOutbox({
    db: store.database.db,
    policy: notificationPolicy,
    box,
    secret: loadWebhookSecret(config.dataDir, config.webhookSecret),
    logger,
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
    recognize: recognizeFile,
    logger,
    concurrency: config.workers,
    maxAudioSeconds: config.limits.audioSeconds,
    engineParams: (sid) => parameters.engineParams(sid),
    onTerminal: notifyTerminal,
    afterTerminal: () => outbox.kick(),
    redact: jobRedactor({ projects, hashKey: redactionHashKey, dataDir: config.dataDir, engineParams: (sid) => parameters.engineParams(sid) }),
    onFinished: async (row) => {
      metrics.jobFinished(row.status, row.model, row.audio_seconds, row.processing_seconds);
      await applyAutoDelete(row, store.jobs, config.dataDir);
    },
  });
  const jobs = new JobService({
    store,
    box,
    dataDir: config.dataDir,
    maxAudioSeconds: config.limits.audioSeconds,
    probe: (file) => probeAudio(file, { maxSeconds: config.limits.audioSeconds }),
    installedModels,
    defaultModel: async () => String((await parameters.engineParams()).model),
    projects,
    notificationPolicy,
    onQueued: () => worker.poke(),
    onTerminal: notifyTerminal,
    afterTerminal: () => outbox.kick(),
  });
  const retention = new RetentionSweeper(store.jobs, (id) => jobs.delete(id), logger);
  return {
    retention,
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
    startedAt: new Date(),
    async close() {
      retention.stop();
      await worker.stop();
      await outbox.stop();
      await bus.close();
      await store.close();
      await closeRedactionPool();
    },
  };
}
