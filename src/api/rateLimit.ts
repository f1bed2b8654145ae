// Requests per API key per minute (per client address for loopback calls without a key). Counted in
// memory, or in Redis when REDIS_URL is set so that the limit holds across processes. Answered as a 429
// problem with Retry-After.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { ServiceError } from '../errors.js';

export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  const max = config.limits.requestsPerMinute;
  if (max === 0) return;
  const redis = config.redisUrl ? new Redis(config.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 }) : undefined;
  if (redis) {
    redis.on('error', (error) => app.log.warn({ err: error.message }, 'rate-limit store unreachable'));
    app.addHook('onClose', async () => redis.disconnect());
  }
  await app.register(rateLimit, {
    max,
    timeWindow: 60_000,
    ...(redis && { redis, nameSpace: 'scrubline:ratelimit:' }),
    // A store outage must not take the API down with it.
    skipOnError: true,
    // Runs after authentication (an instance hook), so the key is known.
    keyGenerator: (request) => (request.apiKey ? `key:${request.apiKey.id}` : `ip:${request.ip}`),
    allowList: (request) => request.routeOptions.config?.scope === 'public',
    errorResponseBuilder: (_request, context) =>
      new ServiceError('rate_limited', `More than ${context.max} requests in a minute; retry in ${context.after}.`, [], {
        retryAfter: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  });
}
