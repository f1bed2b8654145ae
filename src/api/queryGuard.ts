// Query strings are closed: a parameter a route does not declare is refused with a 400 naming it, never
// ignored (`GET /asr/jobs?tracking_id=x` once answered every job, which a script that deletes what it lists
// would act on). Applied once when routes are registered: a declared querystring schema gets
// `additionalProperties: false` unless it says otherwise, and a route declaring none gets an empty, closed one.
// Routes whose parameters are read by the handler (VALIDATED_IN_HANDLER) and hidden routes are left alone.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { VALIDATED_IN_HANDLER } from './schemas.js';

type Schema = Record<string, unknown>;

function closeQuery(route: RouteOptions): void {
  const schema = route.schema as Schema | undefined;
  if (!schema || schema.hide) return;
  const query = schema.querystring as Schema | undefined;
  if (!query) {
    schema.querystring = { type: 'object', properties: {}, additionalProperties: false };
    return;
  }
  if (query[VALIDATED_IN_HANDLER] || query.additionalProperties !== undefined) return;
  schema.querystring = { ...query, additionalProperties: false };
}

/** Installs the guard; call before the routes are registered. */
export function registerQueryGuard(app: FastifyInstance): void {
  app.addHook('onRoute', closeQuery);
}
