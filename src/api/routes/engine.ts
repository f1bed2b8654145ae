// The engine endpoints under /asr/ (and GET /params): languages, parameters, models, usage, statistics,
// capacity, status, system information and metrics of the running service.
import os from 'node:os';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { installedModels, languagesOf, listModels, telephonyAdaptation, TELEPHONY_MODEL } from '../../engine/models.js';
import { sharedPool } from '../../engine/pool.js';
import { sherpaEngine } from '../../engine/recognize.js';
import { sherpaOnnxVersion } from '../../engine/sherpa/binding.js';
import { modelMemory } from '../../engine/sherpa/engine.js';
import { ServiceError } from '../../errors.js';
import { HEARTBEAT_MS, HEARTBEAT_STALE_SECONDS } from '../../jobs/processHeartbeat.js';
import { assessStatus } from '../../observability/serviceStatus.js';
import { ref } from '../../schema/registry.js';
import type { Services } from '../../services.js';
import type { LiveStreamRow, WorkerProcessRow } from '../../store/tables.js';
import { STREAM_STALE_SECONDS } from '../../stream/registry.js';
import { VERSION } from '../../version.js';
import { responses } from '../schemas.js';

const ModelInfo = Type.Object(
  {
    name: Type.String(),
    language: Type.String(),
    engine: Type.String(),
    description: Type.String(),
    sampleRate: Type.Integer(),
    installed: Type.Boolean(),
    reason: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

const DailyStats = Type.Object(
  {
    day: Type.String({ format: 'date' }),
    events: Type.Record(Type.String(), Type.Integer()),
  },
  { additionalProperties: true },
);

function stat(description: string, properties: Parameters<typeof Type.Object>[0]) {
  return Type.Object(properties, { additionalProperties: true, description });
}

/** How long a status page waits for the database before reporting that it does not answer (ms). */
const STORE_CHECK_MS = 3000;

export function engineRoutes(services: Services): FastifyPluginAsync {
  const tags = ['engine'];
  const read = { scope: 'read' as const };

  async function daily(days: number) {
    const rows = await services.store.events.dailyCounts(days);
    const byDay = new Map<string, Record<string, number>>();
    for (const row of rows) {
      const events = byDay.get(row.day) ?? {};
      events[`${row.type}.${row.subType}`] = (events[`${row.type}.${row.subType}`] ?? 0) + row.count;
      byDay.set(row.day, events);
    }
    return [...byDay.entries()].map(([day, events]) => ({ day, events }));
  }

  /**
   * Figures of the answering process only (each process counts the requests it answered): kept apart from the
   * database's figures, which are the cluster's. For every process's, scrape each one's metrics.
   */
  function thisProcess() {
    let total = 0;
    let errors = 0;
    for (const [key, count] of services.metrics.routeCounts) {
      total += count;
      if (Number(key.split(' ').pop()) >= 500) errors += count;
    }
    return {
      id: services.worker.id,
      host: os.hostname(),
      pid: process.pid,
      uptimeSeconds: Math.round(process.uptime()),
      requests: { total, serverErrors: errors },
    };
  }

  /** A store query for a status page: its answer, or the reason it gave none within a bound. */
  async function fromStore<T>(work: () => Promise<T>): Promise<{ value: T } | { error: string }> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${STORE_CHECK_MS / 1000} s`)), STORE_CHECK_MS);
    });
    try {
      return { value: await Promise.race([work(), bound]) };
    } catch (error) {
      return { error: (error as Error).message };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The service as measured now: the store, the models, the processes that run jobs. */
  async function measure() {
    const models = listModels();
    const installed = models.filter((m) => m.installed && !m.auto);
    const queue = await fromStore(() => services.store.jobs.countByStatus());
    const reachable = 'value' in queue;
    const processes = reachable ? await fromStore(() => services.store.processes.live(HEARTBEAT_STALE_SECONDS)) : undefined;
    const params = reachable ? await fromStore(() => services.parameters.engineParams()) : undefined;
    const defaultName = params && 'value' in params ? String(params.value.model) : undefined;
    const defaultModel = defaultName ? models.find((m) => m.name === defaultName || (m.auto && defaultName === 'auto')) : undefined;
    const live = processes && 'value' in processes ? processes.value : undefined;
    const assessed = assessStatus({
      store: reachable ? { reachable } : { reachable, error: queue.error },
      installedModels: installed.map((m) => m.name),
      unusableAddedModels: models.filter((m) => m.engine === 'sherpa-onnx' && !m.installed).map((m) => ({ model: m.name, reason: m.reason ?? 'unknown' })),
      ...(defaultName && { defaultModel: { name: defaultName, installed: defaultModel?.installed === true } }),
      ...(live && { workerProcesses: live.length }),
    });
    return { ...assessed, models, installed, queue: reachable ? queue.value : null, storeError: reachable ? undefined : queue.error, live, defaultName, defaultModel };
  }

  return async (app) => {
    const params = async () => ({ params: await services.parameters.engineParams() });
    const paramsSchema = {
      tags,
      summary: 'Default parameter settings of the engine (resource 20), with system overrides applied',
      response: responses({ 200: ref('EngineParamsResponse') }, []),
    };
    app.get('/asr/params', { config: read, schema: { ...paramsSchema, operationId: 'getEngineParams' } }, params);
    app.get('/params', { config: read, schema: { ...paramsSchema, operationId: 'getParams', summary: 'Same as GET /asr/params' } }, params);

    app.get(
      '/asr/languages',
      {
        config: read,
        schema: {
          operationId: 'listLanguages',
          tags,
          summary: 'Languages of the installed models',
          response: responses({ 200: stat('Languages', { languages: Type.Array(Type.String()), available: Type.Array(Type.String()) }) }, []),
        },
      },
      async () => ({ languages: languagesOf(installedModels()), available: languagesOf(listModels()) }),
    );

    app.get(
      '/asr/models',
      {
        config: read,
        schema: {
          operationId: 'listModels',
          tags,
          summary: 'Language models known to the service, and whether each is installed',
          response: responses({ 200: stat('Models', { default: Type.String(), models: Type.Array(ModelInfo) }) }, []),
        },
      },
      async () => {
        const engine = await services.parameters.engineParams();
        return { default: String(engine.model), models: listModels() };
      },
    );

    app.get(
      '/asr/usage',
      {
        config: read,
        schema: {
          operationId: 'getUsage',
          tags,
          summary: 'Usage per language model: jobs and audio seconds',
          response: responses({
            200: stat('Usage', {
              models: Type.Array(stat('Usage of one model', { model: Type.String(), jobs: Type.Integer(), audioSeconds: Type.Number() })),
            }),
          }, []),
        },
      },
      async () => {
        const used = new Map((await services.store.jobs.usageByModel()).map((u) => [u.model, u]));
        return {
          models: listModels().map((m) => ({
            model: m.name,
            jobs: used.get(m.name)?.jobs ?? 0,
            audioSeconds: used.get(m.name)?.audioSeconds ?? 0,
            processingSeconds: used.get(m.name)?.processingSeconds ?? 0,
          })),
        };
      },
    );

    const dailySchema = (operationId: string, summary: string) => ({
      operationId,
      tags,
      summary,
      querystring: Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 366, default: 7 })) }),
      response: responses({
        200: stat('Daily statistics (from the database: the whole cluster) and, apart, the answering process\'s own figures', {
          days: Type.Array(DailyStats),
          process: stat('The answering process only', { requests: Type.Object({ total: Type.Integer(), serverErrors: Type.Integer() }) }),
        }),
      }),
    });
    app.get<{ Querystring: { days?: number } }>('/asr/stats', { config: read, schema: dailySchema('getDailyStats', 'Daily statistics') }, async (request) => ({
      days: await daily(request.query.days ?? 7),
      jobs: await services.store.jobs.daily(request.query.days ?? 7),
      process: thisProcess(),
    }));
    app.get<{ Querystring: { days?: number } }>(
      '/asr/statusfull',
      { config: read, schema: dailySchema('getStatusFull', 'Status with daily statistics') },
      async (request) => {
        const measured = await measure();
        if (measured.queue === null) throw new ServiceError('unavailable', `The database does not answer: ${measured.storeError}. See /asr/status.`);
        return {
          status: measured.status,
          ...(measured.problems.length > 0 && { problems: measured.problems }),
          version: VERSION,
          uptimeSeconds: Math.round(process.uptime()),
          days: await daily(request.query.days ?? 30),
          jobs: await services.store.jobs.daily(request.query.days ?? 30),
          queue: measured.queue,
          cache: await services.store.cacheEntries.summary(),
          process: thisProcess(),
        };
      },
    );

    app.get(
      '/asr/maxstreamscheck',
      {
        config: read,
        schema: {
          operationId: 'checkMaxStreams',
          tags,
          summary: 'Streams in use against capacity',
          description:
            '`realtime` counts live streams (WebSocket /asr/stream and /asr/stream/twilio) open in the whole cluster, against the capacity a new stream is admitted under (SCRUBLINE_MAX_STREAMS per process, or SCRUBLINE_MAX_STREAMS_TOTAL); the top-level figures count decoders at work (batch channels and live streams).',
          response: responses(
            {
              200: stat('Capacity', {
                streams: Type.Integer(),
                capacity: Type.Integer(),
                available: Type.Integer(),
                accepting: Type.Boolean(),
                realtime: stat('Live streams in the cluster', { streams: Type.Integer(), capacity: Type.Integer(), available: Type.Integer(), accepting: Type.Boolean() }),
              }),
            },
            [],
          ),
        },
      },
      async () => {
        // Streams are decoders at work (batch channels now; real-time streams join them), summed over every
        // process that runs jobs as each last reported itself (heartbeat rows, every few seconds; this
        // process's row is written first, so its own figures are current). Capacity is the sum of their
        // SCRUBLINE_MAX_STREAMS. Memory is this machine's: a new stream may make one more decoder load the
        // largest added model, so the answer is "not accepting" when free memory could not hold another copy.
        await services.heartbeat.beat();
        let processes: WorkerProcessRow[];
        let processing: number;
        try {
          processes = await services.store.processes.live(HEARTBEAT_STALE_SECONDS);
          processing = (await services.store.jobs.countByStatus()).processing ?? 0;
        } catch (error) {
          throw new ServiceError('unavailable', `The database does not answer: ${(error as Error).message}. Capacity is counted there.`);
        }
        let live: LiveStreamRow[];
        try {
          live = await services.store.streams.live(STREAM_STALE_SECONDS);
        } catch (error) {
          throw new ServiceError('unavailable', `The database does not answer: ${(error as Error).message}. Capacity is counted there.`);
        }
        const sum = (pick: (p: WorkerProcessRow) => number) => processes.reduce((n, p) => n + pick(p), 0);
        const capacity = sum((p) => p.max_streams);
        const streams = sum((p) => p.decoders_busy) + live.length;
        // Live streams: admitted against SCRUBLINE_MAX_STREAMS_TOTAL, else the capacities of the processes that
        // hold streams or run jobs (this one included), as store/liveStreams.ts admits them.
        const liveCapacities = new Map<string, number>(processes.map((p) => [p.id, p.max_streams]));
        for (const row of live) liveCapacities.set(row.process_id, row.process_capacity);
        liveCapacities.set(services.worker.id, services.config.limits.maxStreams);
        const liveCapacity = services.config.limits.totalStreams ?? [...liveCapacities.values()].reduce((a, b) => a + b, 0);
        const realtime = {
          streams: live.length,
          capacity: liveCapacity,
          available: Math.max(0, liveCapacity - live.length),
          accepting: live.length < liveCapacity && services.streams.open < services.config.limits.maxStreams,
          thisProcess: { streams: services.streams.open, capacity: services.config.limits.maxStreams },
          byProtocol: Object.fromEntries(['scrubline', 'twilio'].map((p) => [p, live.filter((r) => r.protocol === p).length])),
        };
        const models = modelMemory(sherpaEngine());
        const freeBytes = os.freemem();
        const memoryOk = freeBytes > models.largestModelBytes;
        const reason =
          processes.length === 0
            ? `no process runs jobs (none reported in the last ${HEARTBEAT_STALE_SECONDS} s)`
            : !memoryOk
              ? `free memory (${freeBytes} bytes) could not hold another copy of the largest model (${models.largestModelBytes} bytes)`
              : undefined;
        return {
          streams,
          capacity,
          available: memoryOk ? Math.max(0, capacity - streams) : 0,
          accepting: processes.length > 0 && streams < capacity && memoryOk,
          ...(reason && { reason }),
          realtime,
          counted: `decoders at work in the ${processes.length} process(es) that run jobs, as each reported within the last ${HEARTBEAT_STALE_SECONDS} s (every ${HEARTBEAT_MS / 1000} s)`,
          decoders: { size: sum((p) => p.decoders), busy: streams, waiting: sum((p) => p.decoders_waiting) },
          jobs: { processing, slots: sum((p) => p.job_slots) },
          processes: processes.map((p) => ({
            id: p.id,
            role: p.role,
            host: p.host,
            pid: p.pid,
            streams: p.decoders_busy,
            capacity: p.max_streams,
            decoders: p.decoders,
            waiting: p.decoders_waiting,
            jobsRunning: p.jobs_running,
            jobSlots: p.job_slots,
            reportedAt: p.heartbeat_at,
          })),
          memory: { host: os.hostname(), freeBytes, loadedModelBytes: models.loadedBytes, largestModelBytes: models.largestModelBytes },
        };
      },
    );

    app.get(
      '/asr/status',
      {
        config: read,
        schema: {
          operationId: 'getStatus',
          tags,
          summary: 'Status of the service and its parts',
          description:
            'status is measured when asked: `ok` when every part a job needs answers; `degraded` when some jobs cannot run or only wait (the default or an added model unusable, no process running jobs); `unavailable` when none can (the database does not answer, no model installed). `problems` says why in words.',
          response: responses({
            200: stat('Status', {
              status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('unavailable')]),
              problems: Type.Array(Type.String()),
              version: Type.String(),
              uptimeSeconds: Type.Integer(),
            }),
          }, []),
        },
      },
      async () => {
        // Measured when asked, never assumed: see observability/serviceStatus.ts for what makes it not `ok`.
        const measured = await measure();
        const { models, installed, live } = measured;
        return {
          status: measured.status,
          problems: measured.problems,
          version: VERSION,
          startedAt: services.startedAt.toISOString(),
          uptimeSeconds: Math.round(process.uptime()),
          store: {
            dialect: services.store.database.dialect,
            location: services.store.database.location,
            reachable: measured.queue !== null,
            ...(measured.storeError && { error: measured.storeError }),
          },
          cache: { bus: services.bus.kind, projectsCached: services.projects.cachedCount() },
          engine: {
            ready: installed.length > 0,
            models: installed.map((m) => m.name),
            ...(measured.defaultName && { defaultModel: { name: measured.defaultName, installed: measured.defaultModel?.installed === true } }),
            // Models that cannot be used (an added folder broken since, a failed load check): the service
            // stays up on the others.
            unavailable: models
              .filter((m) => !m.installed)
              .map((m) => ({ model: m.name, engine: m.engine, reason: m.reason ?? 'unknown' })),
            engines: {
              pocketsphinx: { models: installed.filter((m) => m.engine === 'pocketsphinx').map((m) => m.name) },
              'sherpa-onnx': { version: sherpaOnnxVersion() ?? null, models: installed.filter((m) => m.engine === 'sherpa-onnx').map((m) => m.name) },
            },
            ...(installed.length === 0 && { reason: models.map((m) => `${m.name}: ${m.reason}`).join('; ') }),
            // Telephone-band adaptation (scripts/build-telephony-model.sh): built, or why not (calls then run on
            // the wideband model).
            adaptation: {
              model: TELEPHONY_MODEL,
              available: installed.some((m) => m.name === TELEPHONY_MODEL),
              ...telephonyAdaptation(),
            },
          },
          transcription: {
            // Jobs run when a model is installed and some process (this one or a `scrubline worker`) runs jobs.
            available: installed.length > 0 && (live?.length ?? 0) > 0,
            workers: services.config.workers,
            thisProcessRunsJobs: services.heartbeat.active,
            processes: live?.length ?? null,
            jobSlots: live ? live.reduce((n, p) => n + p.job_slots, 0) : null,
            queue: measured.queue,
            decoders: sharedPool().stats(),
          },
        };
      },
    );

    app.get(
      '/asr/sysinfo',
      {
        config: read,
        schema: {
          operationId: 'getSystemInfo',
          tags,
          summary: 'Machine and process information',
          response: responses({ 200: stat('System information', { hostname: Type.String(), cpus: Type.Integer(), memory: Type.Object({}, { additionalProperties: true }) }) }, []),
        },
      },
      async () => {
        const usage = process.memoryUsage();
        return {
          hostname: os.hostname(),
          platform: os.platform(),
          release: os.release(),
          arch: os.arch(),
          cpus: os.availableParallelism(),
          cpuModel: os.cpus()[0]?.model ?? 'unknown',
          loadAverage: os.loadavg(),
          memory: { totalBytes: os.totalmem(), freeBytes: os.freemem() },
          process: { pid: process.pid, node: process.version, rssBytes: usage.rss, heapUsedBytes: usage.heapUsed, uptimeSeconds: Math.round(process.uptime()) },
          // sherpa-onnx models stay loaded in the pool and stream workers that used them: one copy each.
          models: modelMemory(sherpaEngine()),
          service: { version: VERSION, store: services.store.database.dialect, cacheBus: services.bus.kind },
        };
      },
    );

    app.get(
      '/asr/metrics',
      {
        config: read,
        schema: {
          operationId: 'getMetrics',
          tags,
          summary: 'Metrics in Prometheus text format',
          produces: ['text/plain'],
          response: responses({ 200: Type.String({ description: 'Prometheus exposition format' }) }, []),
        },
      },
      async (_request, reply) => {
        reply.type(services.metrics.contentType);
        return services.metrics.text();
      },
    );

  };
}
