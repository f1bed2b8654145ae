// API-key authentication and scope checks. Each route declares the scope it needs in its config
// (`config: { scope: 'read' | 'submit' | 'admin' }`, or `'public'`). While no key exists the service serves
// loopback clients only, without keys; once a key exists every non-public call needs one.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { InvalidationBus } from '../cache/invalidationBus.js';
import { ServiceError } from '../errors.js';
import { crossOriginWrite, type HostPolicy, misdirectedHost } from './browserGuard.js';
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

/** What the invalidation bus carries when a key is made or revoked (every process drops its cached lookups). */
export const KEYS_CHANGED = 'apikeys';

/** Caches key lookups briefly so the hot path does not query the store on every request. */
class KeyCache {
  private count: { value: number; at: number } | undefined;
  private readonly byKey = new Map<string, { info: ApiKeyInfo | undefined; at: number }>();
  /** Bumped by forget(): a lookup that started before it does not cache what it read (a key revoked meanwhile). */
  private generation = 0;

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly ttlMs: number,
  ) {}

  async activeCount(): Promise<number> {
    if (!this.count || Date.now() - this.count.at >= this.ttlMs) {
      const generation = this.generation;
      const value = await this.keys.countActive();
      if (generation !== this.generation) return value;
      this.count = { value, at: Date.now() };
    }
    return this.count.value;
  }

  async find(key: string): Promise<ApiKeyInfo | undefined> {
    const cached = this.byKey.get(key);
    if (cached && Date.now() - cached.at < this.ttlMs) return cached.info;
    const generation = this.generation;
    const info = await this.keys.findActive(key);
    if (info) void this.keys.touch(info.id).catch(() => {});
    if (generation !== this.generation) return info;
    if (this.byKey.size > 10_000) this.byKey.clear();
    this.byKey.set(key, { info, at: Date.now() });
    return info;
  }

  /** Drop every cached lookup: a key was made or revoked, and the next request reads the store. */
  forget(): void {
    this.generation++;
    this.count = undefined;
    this.byKey.clear();
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
    /**
     * Call after a key is made or revoked: this process forgets its cached lookups at once (a revoked key gets 401
     * on the very next request), and the others do on the bus (with Redis; else within their cache's TTL).
     */
    keysChanged: () => Promise<void>;
  }
}

export { presentedKey };

export function registerAuth(app: FastifyInstance, keys: ApiKeyStore, ttlMs: number, bus: InvalidationBus, hosts: HostPolicy): void {
  const cache = new KeyCache(keys, ttlMs);
  bus.subscribe((key) => {
    if (key === KEYS_CHANGED) cache.forget();
  });
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
  app.decorate('keysChanged', async () => {
    cache.forget();
    // The change is stored already; a bus that fails only leaves the other processes to their TTL.
    await bus.publish(KEYS_CHANGED).catch((error: Error) => app.log.warn({ err: error.message }, 'could not tell other processes that API keys changed'));
  });
  // A WebSocket upgrade refused by a hook (here, or the rate limit) before @fastify/websocket saw it: the refusal is
  // written on the raw socket, which nothing else would then close (the client and the server would keep it open).
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 400 && String(request.headers.upgrade ?? '').toLowerCase() === 'websocket') request.raw.socket?.destroy();
  });
  app.addHook('onRequest', async (request) => {
    // While no key exists a browser on this machine has full access for any page it opens: refuse what a page of
    // another origin could make it send (browserGuard.ts). With keys, a call needs a key no page can add, so
    // only the names are checked, and only when SCRUBLINE_ALLOWED_HOSTS lists them.
    const keyless = (await cache.activeCount()) === 0;
    if (keyless || hosts.allowedHosts.length > 0) {
      const misdirected = misdirectedHost(request.headers.host, hosts);
      if (misdirected) throw new ServiceError('misdirected', misdirected);
    }
    if (keyless) {
      const forged = crossOriginWrite(request);
      if (forged) throw new ServiceError('forbidden', forged, [], { reason: 'cross_origin' });
    }
    // Routes that declare no scope need admin, except the pages of the API browser and of the console (static
    // files holding no data: every call they make is checked here with the key the user signs in with).
    const url = request.routeOptions.url ?? '';
    const pages = url === '/docs' || url.startsWith('/docs/') || url === '/console' || url.startsWith('/console/');
    const required = request.routeOptions.config?.scope ?? (pages ? 'public' : 'admin');
    if (required === 'public') return;
    request.apiKey = await authenticate(request, required, presentedKey(request));
  });
}
