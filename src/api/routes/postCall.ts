// POST/GET of post-call records, served under both /system/cache/post-call and /cache/post-call.
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { idString, queryText } from '../../schema/bounds.js';
import { ref } from '../../schema/registry.js';
import type { EventRecord } from '../../schema/resources/eventRecord.js';
import type { Services } from '../../services.js';
import { responses } from '../schemas.js';

export function postCallHandlers(services: Services) {
  return {
    post: {
      options: (tags: string[], operationId: string) => ({
        config: { scope: 'submit' as const },
        schema: {
          operationId,
          tags,
          summary: 'Validate and store a conversation event record (resource 1 with all nested resources)',
          description: 'Answers the stored record (credentials masked), or only {eventId, status} with `Prefer: return=minimal`.',
          headers: Type.Object({ prefer: Type.Optional(queryText({ description: 'return=minimal to answer only {eventId, status}' })) }),
          body: ref('EventRecord'),
          response: responses({ 200: ref('EventRecord'), 201: ref('EventRecord') }, [400, 413, 415, 422, 503]),
        },
      }),
      handler: async (request: FastifyRequest<{ Body: EventRecord }>, reply: FastifyReply) => {
        // The key's scope decides whether the record may lower its project's required redaction (admin only).
        const result = await services.conversations.postCall(request.body, { scope: request.apiKey?.scope, keyId: request.apiKey?.id });
        const eventId = result.record.eventId!;
        reply.code(result.created ? 201 : 200).header('location', `/cache/post-call/${encodeURIComponent(eventId)}`);
        // RFC 7240: high-volume senders may skip the echo of a record they already have.
        if (/\breturn=minimal\b/.test(String(request.headers.prefer ?? ''))) {
          reply.header('preference-applied', 'return=minimal');
          return { eventId, status: result.record.status };
        }
        return result.record;
      },
    },
    get: {
      options: (tags: string[], operationId: string) => ({
        config: { scope: 'read' as const },
        schema: {
          operationId,
          tags,
          summary: 'Read a stored conversation event record, credentials masked',
          params: Type.Object({ eventId: idString() }),
          response: responses({ 200: ref('EventRecord') }, [404]),
        },
      }),
      handler: async (request: FastifyRequest<{ Params: { eventId: string } }>) => services.conversations.get(request.params.eventId),
    },
  };
}
