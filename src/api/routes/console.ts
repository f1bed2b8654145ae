// The console: the static pages built from console/ (Vite, into dist/console by `./run build`) served under
// /console/ with a strict content security policy, / and /console redirecting to it, /favicon.ico, and the one call the pages need that the
// API had not: who the presented key is (its scope decides what the pages offer). The pages hold no secret; the
// key a user signs in with stays in the tab (sessionStorage) and goes with every API call as a bearer token.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { ServiceError } from '../../errors.js';
import { FAVICON } from '../favicon.js';
import type { Services } from '../../services.js';
import { responses } from '../schemas.js';

/** Where `./run build` writes the console (the package root's dist/console, from src/ or from dist/). */
export const CONSOLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/console');

/**
 * Scripts and styles from this origin only; no inline script, no eval, nothing from elsewhere. Styles allow inline
 * (the waveform component styles its shadow DOM with a <style> element); audio plays from blob: URLs made of the
 * fetched (redacted) recording.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function consoleRoutes(_services: Services, dir = CONSOLE_DIR): FastifyPluginAsync {
  return async (app) => {
    app.get('/', { config: { scope: 'public' }, schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 302));
    app.get('/favicon.ico', { config: { scope: 'public' }, schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=86400').type('image/x-icon').send(FAVICON),
    );

    app.get(
      '/console/session',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'getConsoleSession',
          tags: ['system'],
          summary: "The presented key's scope and name (what the console offers); open: no key exists and the caller is on this machine",
          response: responses({ 200: Type.Object({ scope: Type.Enum(['read', 'submit', 'admin']), name: Type.Optional(Type.String()), open: Type.Boolean() }) }, []),
        },
      },
      async (request) => {
        const key = request.apiKey;
        // No key on a served call: none exists and the caller is on loopback, which the API serves in full.
        return key ? { scope: key.scope, name: key.name, open: false } : { scope: 'admin' as const, open: true };
      },
    );

    const built = fs.existsSync(path.join(dir, 'index.html'));
    if (!built) {
      const missing = async () => {
        throw new ServiceError('unavailable', 'The console is not built: run `./run build` (it builds console/ into dist/console).');
      };
      app.get('/console', { config: { scope: 'public' }, schema: { hide: true } }, missing);
      app.get('/console/*', { config: { scope: 'public' }, schema: { hide: true } }, missing);
      return;
    }

    app.addHook('onSend', async (request, reply) => {
      if (request.url === '/console' || request.url.startsWith('/console/')) {
        reply.header('content-security-policy', CONSOLE_CSP);
        reply.header('x-content-type-options', 'nosniff');
        reply.header('referrer-policy', 'no-referrer');
      }
    });
    // The console's address as people type it: its pages load their assets relative to /console/.
    app.get('/console', { config: { scope: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const query = request.url.indexOf('?');
      return reply.redirect(`/console/${query >= 0 ? request.url.slice(query) : ''}`, 301);
    });
    await app.register(fastifyStatic, {
      root: dir,
      prefix: '/console/',
      decorateReply: false,
      index: ['index.html'],
      redirect: true,
      // Hashed asset names never change; the page itself is always revalidated.
      setHeaders: (res, file) => res.setHeader('cache-control', file.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable'),
      cacheControl: false,
      schemaHide: true,
    });
  };
}
