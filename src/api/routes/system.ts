// The System group: initialize, parameters, settings, the cache summary and publishing of project
// configurations, plus the post-call record under its /system path.
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { idString, paging, queryText } from '../../schema/bounds.js';
import { ref } from '../../schema/registry.js';
import type { EventRecord } from '../../schema/resources/eventRecord.js';
import type { Services } from '../../services.js';
import { VERSION } from '../../version.js';
import { responses } from '../schemas.js';
import { postCallHandlers } from './postCall.js';

const ParameterValue = Type.Object(
  {
    name: Type.String(),
    sid: Type.Optional(Type.String()),
    value: Type.Unknown(),
    source: Type.Enum(['project', 'project-config', 'system', 'default']),
    updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: true },
);

const SetParameterBody = Type.Object(
  {
    name: idString({ description: 'Parameter name; an engine parameter of resource 20, a systemSettings field, "systemSettings" (an object of them), or any name of your own.' }),
    value: Type.Unknown({ description: 'Any JSON value; typed parameters must have their type.' }),
    sid: Type.Optional(idString({ description: 'Project id: sets a project parameter instead of a system one.' })),
  },
  { additionalProperties: true },
);

const PublishBody = Type.Object(
  { data: Type.String({ description: 'The project configuration (resource 19) as a JSON string.' }) },
  { additionalProperties: true },
);

const PublishResult = Type.Object(
  {
    sid: Type.String(),
    version: Type.Integer(),
    rules: Type.Array(Type.Unknown()),
    publishedAt: Type.String({ format: 'date-time' }),
    warnings: Type.Array(Type.String()),
  },
  { additionalProperties: true },
);

const CacheSummary = Type.Object(
  {
    bus: Type.String(),
    kinds: Type.Record(Type.String(), Type.Object({ entries: Type.Integer(), bytes: Type.Integer() })),
    process: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true },
);

export function systemRoutes(services: Services): FastifyPluginAsync {
  const tags = ['system'];
  const admin = { scope: 'admin' as const };
  return async (app) => {
    app.post(
      '/system/initialize',
      {
        config: admin,
        schema: {
          operationId: 'initializeSystem',
          tags,
          summary: 'Prepare the store (migrations, defaults); idempotent',
          response: responses({ 200: Type.Object({ initialized: Type.Boolean(), migrationsApplied: Type.Array(Type.String()), store: Type.String(), version: Type.String() }, { additionalProperties: true }) }, []),
        },
      },
      async () => {
        const applied = await services.store.database.migrate();
        await services.store.events.record({
          type: 'system',
          subType: 'initialized',
          subject: 'system',
          status: 'completed',
          details: { migrationsApplied: applied },
        });
        return { initialized: true, migrationsApplied: applied, store: services.store.database.dialect, version: VERSION };
      },
    );

    app.post<{ Body: { name: string; value: unknown; sid?: string } }>(
      '/system/set-parameter',
      {
        config: admin,
        schema: {
          operationId: 'setParameter',
          tags,
          summary: 'Set a system parameter, or a project parameter when sid is given',
          body: SetParameterBody,
          response: responses({ 200: Type.Object({ parameters: Type.Array(ParameterValue) }) }),
        },
      },
      async (request) => ({ parameters: await services.parameters.set(request.body) }),
    );

    app.post<{ Body: { name: string; sid?: string } }>(
      '/system/unset-parameter',
      {
        config: admin,
        schema: {
          operationId: 'unsetParameter',
          tags,
          summary: 'Unset a system parameter, or a project parameter when sid is given: reading it falls back to the next source again',
          description:
            'Removes the value set with set-parameter in that scope (a project\'s own, or the system\'s). The answer gives the value now in force ' +
            '(`current`, as get-parameter reads it: published configuration, system, default), or null when nothing gives one. 404 when it was not set.',
          body: Type.Object({
            name: idString({ description: 'The parameter to unset.' }),
            sid: Type.Optional(idString({ description: 'Project id: unsets the project parameter instead of the system one.' })),
          }),
          response: responses({ 200: Type.Object({ name: Type.String(), sid: Type.Optional(Type.String()), current: Type.Union([ParameterValue, Type.Null()]) }) }, [400, 404]),
        },
      },
      async (request) => {
        const { name, sid } = request.body;
        return { name, ...(sid !== undefined && { sid }), current: await services.parameters.unset({ name, sid }) };
      },
    );

    app.get<{ Querystring: { name?: string; sid?: string } }>(
      '/system/get-parameter',
      {
        config: admin,
        schema: {
          operationId: 'getParameter',
          tags,
          summary: 'Read a parameter (project, then published configuration, then system, then default); without name, list a scope',
          querystring: Type.Object({ name: Type.Optional(idString()), sid: Type.Optional(idString()) }),
          response: responses({ 200: Type.Union([ParameterValue, Type.Object({ parameters: Type.Array(ParameterValue) })]) }, [400, 404]),
        },
      },
      async (request) => {
        const { name, sid } = request.query;
        if (name === undefined) return { parameters: await services.parameters.list(sid) };
        return services.parameters.get(name, sid);
      },
    );

    app.get(
      '/system/get-settings',
      {
        config: admin,
        schema: { operationId: 'getSettings', tags, summary: 'The system settings (resource 16), credentials masked', response: responses({ 200: ref('SystemSettings') }, []) },
      },
      async () => services.parameters.systemSettings(),
    );

    app.get(
      '/system/cache',
      { config: admin, schema: { operationId: 'getCacheSummary', tags, summary: 'Summary of the cache', response: responses({ 200: CacheSummary }, []) } },
      async () => ({
        bus: services.bus.kind,
        kinds: await services.store.cacheEntries.summary(),
        process: { projectsCached: services.projects.cachedCount(), hits: services.projects.hits, misses: services.projects.misses },
      }),
    );

    app.post<{ Body: { data: string } }>(
      '/system/cache/v2/publish',
      {
        config: admin,
        schema: {
          operationId: 'publishProjectConfig',
          tags,
          summary: 'Publish a project configuration (resource 19) as a new version of its sid',
          body: PublishBody,
          response: responses({ 200: PublishResult }),
        },
      },
      async (request) => services.projects.publish(request.body.data),
    );

    const postCall = postCallHandlers(services);
    app.post<{ Body: EventRecord }>('/system/cache/post-call', postCall.post.options(tags, 'submitPostCall'), postCall.post.handler);
    app.get<{ Params: { eventId: string } }>('/system/cache/post-call/:eventId', postCall.get.options(tags, 'getPostCall'), postCall.get.handler);

    app.get<{ Querystring: { type?: string; subject?: string; limit: number; offset: number } }>(
      '/system/events',
      {
        config: admin,
        schema: {
          operationId: 'listEvents',
          tags,
          summary: 'The event log, newest first',
          querystring: Type.Object({
            type: Type.Optional(queryText()),
            subject: Type.Optional(queryText()),
            ...paging(1000, 100),
          }),
          response: responses({ 200: Type.Object({ events: Type.Array(ref('EventRecord')) }) }),
        },
      },
      async (request) => ({ events: await services.store.events.list(request.query) }),
    );
  };
}
