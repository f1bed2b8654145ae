// GET /asr/jobs/{jobId}/events: the event log of one job (queued, started, transcribed, redaction, completed...),
// for read keys, which the whole log (/system/events) is not served to. Events carry kinds, counts and times,
// never a redacted value.
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { idString, paging } from '../../schema/bounds.js';
import { ref } from '../../schema/registry.js';
import type { Services } from '../../services.js';
import { responses } from '../schemas.js';

export function jobEventRoutes(services: Services): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { jobId: string }; Querystring: { limit: number; offset: number } }>(
      '/asr/jobs/:jobId/events',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listJobEvents',
          tags: ['jobs'],
          summary: "A job's events, newest first",
          params: Type.Object({ jobId: idString() }),
          querystring: Type.Object({ ...paging(1000, 100) }),
          response: responses({ 200: Type.Object({ events: Type.Array(ref('EventRecord')) }) }, [400, 404]),
        },
      },
      async (request) => {
        const job = await services.jobs.get(request.params.jobId);
        return { events: await services.store.events.list({ subject: job.id, limit: request.query.limit, offset: request.query.offset }) };
      },
    );
  };
}
