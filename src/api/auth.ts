// API-key authentication and scope checks. Each route declares the scope it needs in its config
// (`config: { scope: 'read' | 'submit' | 'admin' }`, or `'public'`). While no key exists the service serves
// loopback clients only, without keys; once a key exists every non-public call needs one.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors.js';
import { type ApiKeyInfo, type Scope, scopeAllows } from '../store/apiKeys.js';
import type { ApiKeyStore } from '../store/apiKeys.js';

export type RouteScope = Scope | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: RouteScope;
  }
  interface FastifyRequest {
    apiKey?: ApiKeyInfo;
  }
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match) return match[1];
  }
  const apiKey = request.headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey !== '' ? apiKey : undefined;
}

/** Caches key lookups briefly so the hot path does not query the store on every request. */
class KeyCache {
  private count: { value: number; at: number } | undefined;
  private readonly byKey = new Map<string, { info: ApiKeyInfo | undefined; at: number }>();

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly ttlMs: number,
  ) {}

  async activeCount(): Promise<number> {
    if (!this.count || Date.now() - this.count.at >= this.ttlMs) {
      this.count = { value: await this.keys.countActive(), at: Date.now() };
    }
    return this.count.value;
  }

  async find(key: string): Promise<ApiKeyInfo | undefined> {
    const cached = this.byKey.get(key);
    if (cached && Date.now() - cached.at < this.ttlMs) return cached.info;
    const info = await this.keys.findActive(key);
    if (this.byKey.size > 10_000) this.byKey.clear();
    this.byKey.set(key, { info, at: Date.now() });
    if (info) void this.keys.touch(info.id).catch(() => {});
    return info;
  }
}

/**
 * Checks a presented key (or its absence) against the scope a call needs: the key's info, or undefined for a
 * loopback client while no key exists; throws 401/403 otherwise. WebSocket routes call it themselves with the
 * key of a header or of their first message (api/routes/stream.ts).
 */
export type Authenticate = (request: FastifyRequest, required: Scope, key: string | undefined) => Promise<ApiKeyInfo | undefined>;

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: Authenticate;
  }
}

export { presentedKey };

export function registerAuth(app: FastifyInstance, keys: ApiKeyStore, ttlMs: number): void {
  const cache = new KeyCache(keys, ttlMs);
  const authenticate: Authenticate = async (request, required, key) => {
    if (key === undefined) {
      if ((await cache.activeCount()) === 0) {
        if (isLoopback(request.socket.remoteAddress)) return undefined;
        throw new ServiceError(
          'unauthorized',
          'No API key exists yet, so only clients on this machine are served. Create one with `scrubline keys create`.',
        );
      }
      throw new ServiceError('unauthorized', 'An API key is required: send `Authorization: Bearer <key>` or `X-API-Key: <key>`.');
    }
    const info = await cache.find(key);
    if (!info) throw new ServiceError('unauthorized', 'The API key is unknown or revoked.');
    if (!scopeAllows(info.scope, required)) {
      throw new ServiceError('forbidden', `This call needs the "${required}" scope; the key has "${info.scope}".`);
    }
    return info;
  };
  app.decorate('authenticate', authenticate);
  app.addHook('onRequest', async (request) => {
    // Routes that declare no scope need admin, except the pages of the API browser and of the console (static
    // files holding no data: every call they make is checked here with the key the user signs in with).
    const url = request.routeOptions.url ?? '';
    const pages = url === '/docs' || url.startsWith('/docs/') || url === '/console' || url.startsWith('/console/');
    const required = request.routeOptions.config?.scope ?? (pages ? 'public' : 'admin');
    if (required === 'public') return;
    request.apiKey = await authenticate(request, required, presentedKey(request));
  });
}
