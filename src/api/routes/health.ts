// Liveness and readiness, for load balancers and orchestrators; no key needed.
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import Type from 'typebox';
import { ServiceError } from '../../errors.js';
import type { Services } from '../../services.js';
import { responses } from '../schemas.js';

export function healthRoutes(services: Services): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/health',
      {
        config: { scope: 'public' },
        schema: { operationId: 'getHealth', tags: ['health'], security: [], summary: 'Liveness', response: responses({ 200: Type.Object({ status: Type.Literal('ok') }) }, [], { public: true }) },
      },
      async () => ({ status: 'ok' as const }),
    );
    app.get(
      '/ready',
      {
        config: { scope: 'public' },
        schema: {
          operationId: 'getReadiness',
          tags: ['health'],
          security: [],
          summary: 'Readiness: the store answers and the engine decodes',
          description:
            'Ready when the store answers a query and the engine decodes half a second of audio with the default model. ' +
            'The decode runs at most once per 30 s (calls meanwhile get its answer, `engine.checkedAt`); 503 when either fails.',
          response: responses(
            {
              200: Type.Object({
                status: Type.String(),
                store: Type.String(),
                engine: Type.Object({ ok: Type.Boolean(), model: Type.String(), checkedAt: Type.String({ format: 'date-time' }) }),
              }),
            },
            [503],
            { public: true },
          ),
        },
      },
      async () => {
        await sql`select 1`.execute(services.store.database.db);
        const engine = await services.decodeCheck.check();
        if (!engine.ok) {
          throw new ServiceError('unavailable', `Not ready: the engine cannot decode with ${engine.model} (${engine.error}).`, [], { engine });
        }
        return { status: 'ready', store: services.store.database.dialect, engine: { ok: true, model: engine.model, checkedAt: engine.checkedAt } };
      },
    );
  };
}
