// Liveness and readiness, for load balancers and orchestrators; no key needed.
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import Type from 'typebox';
import type { Services } from '../../services.js';
import { responses } from '../schemas.js';

export function healthRoutes(services: Services): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/health',
      {
        config: { scope: 'public' },
        schema: { operationId: 'getHealth', tags: ['health'], security: [], summary: 'Liveness', response: responses({ 200: Type.Object({ status: Type.Literal('ok') }) }, []) },
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
          summary: 'Readiness: the store answers',
          response: responses({ 200: Type.Object({ status: Type.String(), store: Type.String() }) }, [503]),
        },
      },
      async () => {
        await sql`select 1`.execute(services.store.database.db);
        return { status: 'ready', store: services.store.database.dialect };
      },
    );
  };
}
