// The HTTP application: Fastify with one schema source (the shared schemas), exact body validation,
// problem+json errors, API-key auth, the OpenAPI document and a plugin per route group.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { registeredSchemas } from '../schema/registry.js';
import { bodyAjv, textAjv } from '../schema/validator.js';
import type { Services } from '../services.js';
import { VERSION } from '../version.js';
import { registerAuth } from './auth.js';
import { registerInputGuard } from './inputGuard.js';
import { registerQueryGuard } from './queryGuard.js';
import { MAX_ID_LENGTH } from '../schema/bounds.js';
import { VALIDATED_IN_HANDLER } from './schemas.js';
import { registerProblemHandlers } from './problems.js';
import { registerRateLimit } from './rateLimit.js';
import { WEBHOOKS } from './webhooks.js';
import { cacheRoutes } from './routes/cache.js';
import { engineRoutes } from './routes/engine.js';
import { jobRoutes } from './routes/jobs.js';
import { notificationRoutes } from './routes/notifications.js';
import { systemRoutes } from './routes/system.js';
import { healthRoutes } from './routes/health.js';
import { consoleRoutes } from './routes/console.js';
import { jobEventRoutes } from './routes/jobEvents.js';
import { keyRoutes } from './routes/keys.js';
import { projectRoutes } from './routes/projects.js';
import { streamRoutes } from './routes/stream.js';
import { streamMessageRoutes } from './routes/streamMessages.js';
import { searchRoutes } from './routes/search.js';
import { insightSummaryRoutes } from './routes/insightSummary.js';

export interface AppOptions {
  logger?: FastifyServerOptions['loggerInstance'];
}


export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: services.config.limits.jsonBodyBytes,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // A path parameter is an id: room for MAX_ID_LENGTH characters percent-encoded (up to 9 bytes of URL per
    // character); longer is a 414 before routing, and the route's schema bounds the decoded id (400).
    routerOptions: { maxParamLength: MAX_ID_LENGTH * 9 },
  });

  // Bodies are validated exactly as sent: no coercion and nothing removed. Query strings are text, so they
  // are coerced to the declared types.
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if ((schema as Record<string, unknown>)[VALIDATED_IN_HANDLER]) return () => true;
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    return ajv.compile(schema);
  });
  // Responses are written as they are: records keep every field the client sent, which a schema-driven
  // serializer would drop or coerce. Response schemas document the shapes (and tests check them).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Only JSON is accepted on JSON routes: text/plain would otherwise be parsed as a string.
  app.removeContentTypeParser('text/plain');

  for (const schema of registeredSchemas()) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Scrubline',
        version: VERSION,
        description: 'Speech recognition and redaction for contact-center conversations.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Relative: the server that serves this document (behind a proxy, the address the client used).
      servers: [{ url: '/', description: 'This server' }],
      webhooks: WEBHOOKS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'API key made with `scrubline keys create` or `POST /system/keys`.' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKeyHeader: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  registerProblemHandlers(app);
  registerAuth(app, services.store.apiKeys, services.config.authCacheMs, services.bus, { listenHost: services.config.host, allowedHosts: services.config.allowedHosts });
  await registerRateLimit(app, services.config);
  registerInputGuard(app);
  registerQueryGuard(app);

  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-scrubline-version', VERSION);
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    services.metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.get('/openapi.json', { config: { scope: 'public' }, schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes(services));
  await app.register(engineRoutes(services));
  await app.register(jobRoutes(services));
  await app.register(notificationRoutes(services));
  await app.register(systemRoutes(services));
  await app.register(cacheRoutes(services));
  await app.register(jobEventRoutes(services));
  await app.register(projectRoutes(services));
  await app.register(keyRoutes(services));
  await app.register(consoleRoutes(services));
  await app.register(streamRoutes(services));
  await app.register(streamMessageRoutes(services));
  await app.register(searchRoutes(services));
  await app.register(insightSummaryRoutes(services));
  return app;
}
