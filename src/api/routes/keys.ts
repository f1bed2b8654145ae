// API keys over HTTP (admin scope), as the CLI manages them: the list (never a key nor its hash), a new key (the
// key itself answered once, at creation; only its hash is stored), and revocation by id. Two refusals keep an
// admin key in force once keys exist, so that no call over HTTP locks every admin out: the first key must be an
// admin key, and the last active admin key cannot be revoked (the CLI on the machine still can).
// Each change is an event (system/key_created, system/key_revoked) and reaches the auth cache at once.
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { notFound, ServiceError } from '../../errors.js';
import { idString, NO_CONTROL_CHARACTERS } from '../../schema/bounds.js';
import type { Services } from '../../services.js';
import { type ApiKeyInfo, type Scope, SCOPES } from '../../store/apiKeys.js';
import { responses } from '../schemas.js';

/** Longest name of a key. */
export const MAX_KEY_NAME_LENGTH = 100;

const keyInfoFields = {
  id: Type.String(),
  name: Type.String(),
  scope: Type.Enum([...SCOPES]),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it by; not enough to use it.' }),
  createdAt: Type.String({ format: 'date-time' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When a request last presented the key (refreshed when this process looks it up, at most once per auth cache period).',
  }),
};
const KeyInfo = Type.Object(keyInfoFields, { additionalProperties: false });
const CreatedKey = Type.Object(
  { key: Type.String({ description: 'The key itself: answered this once, never stored nor shown again.' }), ...keyInfoFields },
  { additionalProperties: false },
);

/** The answer's fields, named one by one: nothing else the store may hold ever reaches it. */
const info = (key: ApiKeyInfo): ApiKeyInfo => ({
  id: key.id,
  name: key.name,
  scope: key.scope,
  prefix: key.prefix,
  createdAt: key.createdAt,
  revokedAt: key.revokedAt,
  lastUsedAt: key.lastUsedAt,
});

export function keyRoutes(services: Services): FastifyPluginAsync {
  const tags = ['system'];
  const admin = { scope: 'admin' as const };
  return async (app) => {
    app.get(
      '/system/keys',
      {
        config: admin,
        schema: {
          operationId: 'listApiKeys',
          tags,
          summary: 'Every API key, revoked ones included, oldest first: id, name, scope, prefix and times; never a key nor its hash',
          // 400: a query parameter (the list takes none).
          response: responses({ 200: Type.Object({ keys: Type.Array(KeyInfo) }) }),
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return { keys: (await services.store.apiKeys.list()).map(info) };
      },
    );

    app.post<{ Body: { name: string; scope: Scope } }>(
      '/system/keys',
      {
        config: admin,
        schema: {
          operationId: 'createApiKey',
          tags,
          summary: 'Make an API key: the key is answered this once (only its hash is stored)',
          description:
            'While no key exists (a client on this machine, served without one) the first key must have the admin scope, so that ' +
            'keys are never required with no admin key to manage them: 409 otherwise.',
          body: Type.Object(
            {
              name: Type.String({ minLength: 1, maxLength: MAX_KEY_NAME_LENGTH, pattern: NO_CONTROL_CHARACTERS, description: 'A name to recognise the key by.' }),
              scope: Type.Enum([...SCOPES], { description: 'read < submit < admin: each may do what the one before may.' }),
            },
            { additionalProperties: false },
          ),
          response: responses({ 201: CreatedKey }, [400, 409]),
        },
      },
      async (request, reply) => {
        const { name, scope } = request.body;
        const created = await services.store.transaction(async (store) => {
          if (scope !== 'admin' && (await store.apiKeys.countActive()) === 0) {
            throw new ServiceError('conflict', 'The first API key must have the admin scope: once a key exists every call needs one, and keys are managed with an admin key.');
          }
          const key = await store.apiKeys.create(name, scope);
          await store.events.record({
            type: 'system',
            subType: 'key_created',
            subject: key.id,
            status: 'completed',
            message: `API key ${key.id} (${scope}) created`,
            details: { id: key.id, name, scope, by: request.apiKey?.id ?? null },
          });
          return key;
        });
        await app.keysChanged();
        reply.code(201).header('cache-control', 'no-store');
        return { key: created.key, ...info(created) };
      },
    );

    app.delete<{ Params: { id: string } }>(
      '/system/keys/:id',
      {
        config: admin,
        schema: {
          operationId: 'revokeApiKey',
          tags,
          summary: 'Revoke an API key by id: it is refused from the next request on',
          description:
            'Answers the revoked key. 404 when no active key has this id; 409 when it is the last active admin key (make another ' +
            'admin key first, or revoke it with `scrubline keys revoke` on the machine).',
          params: Type.Object({ id: idString({ description: 'The key id (from the list or the creation).' }) }),
          response: responses({ 200: KeyInfo }, [400, 404, 409]),
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const outcome = await services.store.transaction(async (store) => {
          const result = await store.apiKeys.revokeUnlessLastAdmin(id);
          if ('revoked' in result) {
            await store.events.record({
              type: 'system',
              subType: 'key_revoked',
              subject: id,
              status: 'completed',
              message: `API key ${id} (${result.revoked.scope}) revoked`,
              details: { id, name: result.revoked.name, scope: result.revoked.scope, by: request.apiKey?.id ?? null },
            });
          }
          return result;
        });
        if ('refused' in outcome) {
          if (outcome.refused === 'not_found') throw notFound('No active API key has this id (unknown, or revoked already).');
          throw new ServiceError(
            'conflict',
            'This is the last active admin key: revoking it would leave no key able to manage keys. Make another admin key first (or revoke it with `scrubline keys revoke` on the machine).',
          );
        }
        await app.keysChanged();
        reply.header('cache-control', 'no-store');
        return info(outcome.revoked);
      },
    );
  };
}
