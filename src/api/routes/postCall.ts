// POST/GET of post-call records, served under both /system/cache/post-call and /cache/post-call.
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { ref } from '../../schema/registry.js';
import type { EventRecord } from '../../schema/resources/eventRecord.js';
import type { Services } from '../../services.js';
import { responses } from '../schemas.js';

export function postCallHandlers(services: Services) {
  return {
    post: {
      options: (tags: string[]) => ({
        config: { scope: 'submit' as const },
        schema: {
          tags,
          summary: 'Validate and store a conversation event record (resource 1 with all nested resources)',
          body: ref('EventRecord'),
          response: responses({ 200: ref('EventRecord'), 201: ref('EventRecord') }, [400, 413, 415]),
        },
      }),
      handler: async (request: FastifyRequest<{ Body: EventRecord }>, reply: FastifyReply) => {
        const result = await services.conversations.postCall(request.body);
        reply.code(result.created ? 201 : 200);
        return result.record;
      },
    },
    get: {
      options: (tags: string[]) => ({
        config: { scope: 'read' as const },
        schema: {
          tags,
          summary: 'Read a stored conversation event record, credentials masked',
          params: Type.Object({ eventId: Type.String() }),
          response: responses({ 200: ref('EventRecord') }, [404]),
        },
      }),
      handler: async (request: FastifyRequest<{ Params: { eventId: string } }>) => services.conversations.get(request.params.eventId),
    },
  };
}
