// The engine endpoints under /asr/ (and GET /params): languages, parameters, models, usage, statistics,
// capacity, status, system information and metrics of the running service.
import os from 'node:os';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { installedModels, installedRealModels, languagesOf, listModels, telephonyAdaptation, TELEPHONY_MODEL } from '../../engine/models.js';
import { sharedPool } from '../../engine/pool.js';
import { sherpaEngine } from '../../engine/recognize.js';
import { sherpaOnnxVersion } from '../../engine/sherpa/binding.js';
import { modelMemory } from '../../engine/sherpa/engine.js';
import { ref } from '../../schema/registry.js';
import type { Services } from '../../services.js';
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

  function requestTotals() {
    let total = 0;
    let errors = 0;
    for (const [key, count] of services.metrics.routeCounts) {
      total += count;
      if (Number(key.split(' ').pop()) >= 500) errors += count;
    }
    return { total, serverErrors: errors };
  }

  return async (app) => {
    const params = async () => ({ params: await services.parameters.engineParams() });
    const paramsSchema = {
      tags,
      summary: 'Default parameter settings of the engine (resource 20), with system overrides applied',
      response: responses({ 200: ref('EngineParamsResponse') }, []),
    };
    app.get('/asr/params', { config: read, schema: paramsSchema }, params);
    app.get('/params', { config: read, schema: { ...paramsSchema, summary: 'Same as GET /asr/params' } }, params);

    app.get(
      '/asr/languages',
      {
        config: read,
        schema: {
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

    const dailySchema = (summary: string) => ({
      tags,
      summary,
      querystring: Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 366, default: 7 })) }),
      response: responses({ 200: stat('Daily statistics', { days: Type.Array(DailyStats), requests: Type.Object({ total: Type.Integer(), serverErrors: Type.Integer() }) }) }),
    });
    app.get<{ Querystring: { days?: number } }>('/asr/stats', { config: read, schema: dailySchema('Daily statistics') }, async (request) => ({
      days: await daily(request.query.days ?? 7),
      jobs: await services.store.jobs.daily(request.query.days ?? 7),
      requests: requestTotals(),
    }));
    app.get<{ Querystring: { days?: number } }>(
      '/asr/statusfull',
      { config: read, schema: dailySchema('Status with daily statistics') },
      async (request) => ({
        status: 'ok',
        version: VERSION,
        uptimeSeconds: Math.round(process.uptime()),
        days: await daily(request.query.days ?? 30),
        jobs: await services.store.jobs.daily(request.query.days ?? 30),
        queue: await services.store.jobs.countByStatus(),
        requests: requestTotals(),
        cache: await services.store.cacheEntries.summary(),
      }),
    );

    app.get(
      '/asr/maxstreamscheck',
      {
        config: read,
        schema: {
          tags,
          summary: 'Streams in use against capacity',
          response: responses({ 200: stat('Capacity', { streams: Type.Integer(), capacity: Type.Integer(), available: Type.Integer(), accepting: Type.Boolean() }) }, []),
        },
      },
      async () => {
        // Streams are decoders at work (batch channels now; real-time streams join them), against the
        // configured capacity; the pool's own size and backlog are given too.
        // Memory counts too: a new stream may make one more worker load the largest added model, so the
        // service stops accepting when free memory could not hold another copy of it.
        const decoders = sharedPool().stats();
        const capacity = services.config.limits.maxStreams;
        const streams = decoders.busy;
        const models = modelMemory(sherpaEngine());
        const freeBytes = os.freemem();
        const memoryOk = freeBytes > models.largestModelBytes;
        return {
          streams,
          capacity,
          available: memoryOk ? Math.max(0, capacity - streams) : 0,
          accepting: streams < capacity && memoryOk,
          ...(!memoryOk && { reason: `free memory (${freeBytes} bytes) could not hold another copy of the largest model (${models.largestModelBytes} bytes)` }),
          decoders: { size: decoders.size, busy: decoders.busy, waiting: decoders.queued },
          memory: { freeBytes, loadedModelBytes: models.loadedBytes, largestModelBytes: models.largestModelBytes },
        };
      },
    );

    app.get(
      '/asr/status',
      {
        config: read,
        schema: {
          tags,
          summary: 'Status of the service and its parts',
          response: responses({ 200: stat('Status', { status: Type.String(), version: Type.String(), uptimeSeconds: Type.Integer() }) }, []),
        },
      },
      async () => {
        const installed = installedRealModels(); // en-us:auto is a choice between these, not a model
        return {
          status: 'ok',
          version: VERSION,
          startedAt: services.startedAt.toISOString(),
          uptimeSeconds: Math.round(process.uptime()),
          store: { dialect: services.store.database.dialect, location: services.store.database.location },
          cache: { bus: services.bus.kind, projectsCached: services.projects.cachedCount() },
          engine: {
            ready: installed.length > 0,
            models: installed.map((m) => m.name),
            // Models that cannot be used (an added folder broken since, a failed load check): the service
            // stays up on the others.
            unavailable: listModels()
              .filter((m) => !m.installed)
              .map((m) => ({ model: m.name, engine: m.engine, reason: m.reason ?? 'unknown' })),
            engines: {
              pocketsphinx: { models: installed.filter((m) => m.engine === 'pocketsphinx').map((m) => m.name) },
              'sherpa-onnx': { version: sherpaOnnxVersion() ?? null, models: installed.filter((m) => m.engine === 'sherpa-onnx').map((m) => m.name) },
            },
            ...(installed.length === 0 && { reason: listModels().map((m) => `${m.name}: ${m.reason}`).join('; ') }),
            // Telephone-band adaptation (scripts/build-telephony-model.sh): built, or why not (calls then run on
            // the wideband model).
            adaptation: {
              model: TELEPHONY_MODEL,
              available: installed.some((m) => m.name === TELEPHONY_MODEL),
              ...telephonyAdaptation(),
            },
          },
          transcription: {
            available: installed.length > 0,
            workers: services.config.workers,
            queue: await services.store.jobs.countByStatus(),
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
          // sherpa-onnx models stay loaded in the pool workers that used them: one copy each.
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
          tags,
          summary: 'Metrics in Prometheus text format',
          produces: ['text/plain'],
          response: { 200: Type.String({ description: 'Prometheus exposition format' }) },
        },
      },
      async (_request, reply) => {
        reply.type(services.metrics.contentType);
        return services.metrics.text();
      },
    );

  };
}
