// The /cache group: post-call (alias of /system/cache/post-call), real-call messages of live
// conversations, and the paged list of cache entries.
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { VALIDATED_IN_HANDLER, responses } from '../schemas.js';
import { idString, paging, queryText } from '../../schema/bounds.js';
import { ref } from '../../schema/registry.js';
import type { EventRecord } from '../../schema/resources/eventRecord.js';
import type { Services } from '../../services.js';
import { CACHE_KINDS, type CacheKind } from '../../store/cacheEntries.js';

import { postCallHandlers } from './postCall.js';

const RealCallResult = Type.Object(
  {
    conversationKey: Type.String(),
    sequence: Type.Integer(),
    receivedAt: Type.String({ format: 'date-time' }),
    realTimeMessage: ref('RealTimeMessage'),
    postCall: Type.Optional(Type.Object({ eventId: Type.String(), status: Type.String() }, { description: 'Set when this message ended the conversation (type end/hangup/...): the post-call record it became.' })),
  },
  { additionalProperties: true },
);

const CacheEntry = Type.Object(
  {
    key: Type.String(),
    kind: Type.Enum([...CACHE_KINDS]),
    size: Type.Integer(),
    updatedAt: Type.String(),
    version: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
);

export function cacheRoutes(services: Services): FastifyPluginAsync {
  const tags = ['cache'];
  return async (app) => {
    const postCall = postCallHandlers(services);
    app.post<{ Body: EventRecord }>('/cache/post-call', postCall.post.options(tags, 'cacheSubmitPostCall'), postCall.post.handler);
    app.get<{ Params: { eventId: string } }>('/cache/post-call/:eventId', postCall.get.options(tags, 'cacheGetPostCall'), postCall.get.handler);

    app.post(
      '/cache/real-call',
      {
        config: { scope: 'submit' },
        schema: {
          operationId: 'submitRealCall',
          tags,
          summary: 'Append a realTimeMessage (or an event record carrying one) to its live conversation',
          // Which schema applies depends on the body (a message or a record), so the handler validates it.
          body: { anyOf: [ref('RealTimeMessage'), ref('EventRecord')], [VALIDATED_IN_HANDLER]: true },
          response: responses({ 200: RealCallResult }),
        },
      },
      async (request) => services.conversations.realCall(request.body, { scope: request.apiKey?.scope, keyId: request.apiKey?.id }),
    );

    app.post<{ Params: { key: string } }>(
      '/cache/live/:key/end',
      {
        config: { scope: 'submit' },
        schema: {
          operationId: 'endLiveConversation',
          tags,
          summary: 'End a live conversation: its final messages are processed as the post-call record live:{key} (analytics, insights)',
          params: Type.Object({ key: idString() }),
          response: responses({ 200: Type.Object({ eventId: Type.String(), status: Type.String() }) }, [404]),
        },
      },
      async (request) => services.conversations.endLive(request.params.key),
    );

    app.get<{ Params: { key: string } }>(
      '/cache/live/:key',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'getLiveConversation',
          tags,
          summary: 'The messages of a live conversation, in order',
          params: Type.Object({ key: idString() }),
          response: responses(
            {
              200: Type.Object({
                conversationKey: Type.String(),
                messages: Type.Array(Type.Object({ sequence: Type.Integer(), receivedAt: Type.String(), message: ref('RealTimeMessage') })),
              }),
            },
            [404],
          ),
        },
      },
      async (request) => services.conversations.live(request.params.key),
    );

    app.get<{ Querystring: { kind?: CacheKind; prefix?: string; limit: number; offset: number } }>(
      '/cache/list',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listCacheEntries',
          tags,
          summary: 'Entries of the cache, newest first, paged',
          querystring: Type.Object({
            kind: Type.Optional(Type.Enum([...CACHE_KINDS])),
            prefix: Type.Optional(queryText()),
            ...paging(1000, 100),
          }),
          response: responses({
            200: Type.Object({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), entries: Type.Array(CacheEntry) }),
          }),
        },
      },
      async (request) => {
        const { kind, prefix, limit, offset } = request.query;
        const page = await services.store.cacheEntries.list({ kind, prefix, limit, offset });
        return { total: page.total, limit, offset, entries: page.entries };
      },
    );
  };
}
