// GET /asr/stream/{streamId}/messages: the live transcript a stream sent, kept (issue 19): its finals as they
// went to the client (redacted in flight, marked windows masked, insights raised), in sequence order, paged by
// sequence number. Nothing unredacted was ever stored, so nothing here needs masking. DELETE removes it: a
// stream's after-call job takes its transcript with it when deleted, and a stream without a job (job: false)
// would otherwise keep its words forever.
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { notFound } from '../../errors.js';
import { idString, paging } from '../../schema/bounds.js';
import type { Services } from '../../services.js';
import { OpenObject, responses } from '../schemas.js';

/** Most messages one answer holds. */
const MAX_LIMIT = 1000;

const Answer = Type.Object(
  {
    streamId: Type.String(),
    messages: Type.Array(
      Type.Object({
        sequence: Type.Integer({ description: "The message's sequence number in its stream (partials, not kept, fill the gaps)." }),
        channel: Type.Integer(),
        createdAt: Type.String({ description: 'When it was kept (ISO 8601).' }),
        message: OpenObject('The realTimeMessage frame as sent: {type, sequence, streamId, channel, realTimeMessage, words, redacted}.'),
      }),
    ),
    nextAfterSequence: Type.Union([Type.Integer(), Type.Null()], { description: 'Pass as afterSequence for the next page; null on the last.' }),
  },
  { description: "A stream's kept finals." },
);

export function streamMessageRoutes(services: Services): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: { callSid?: string; limit: number; offset: number } }>(
      '/asr/streams',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listCallStreams',
          tags: ['Engine'],
          summary: 'The live streams kept: all of them, or those that carried a telephony call (by its callSid)',
          description:
            'With `callSid`: every stream whose kept finals name the call (a Twilio stream takes it from its start message; a Scrubline stream from `callSid` in its start message), oldest first, all of them. ' +
            'Without: every stream with kept finals, the most recently active first (by its last final), paged by `limit` and `offset`, each with the `callSid` it carried when it named one. ' +
            'Read each with GET /asr/stream/{streamId}/messages. An empty list when none is kept. Ids, counts and times only: no text.',
          querystring: Type.Object({
            callSid: Type.Optional(idString({ description: "The call's id (Twilio CallSid); absent: every stream kept." })),
            ...paging(100, 20),
          }),
          response: responses(
            {
              200: Type.Object({
                callSid: Type.Optional(Type.String({ description: 'The call asked for (with `callSid`).' })),
                limit: Type.Optional(Type.Integer({ description: 'Without `callSid`: the page.' })),
                offset: Type.Optional(Type.Integer()),
                streams: Type.Array(
                  Type.Object({
                    streamId: Type.String(),
                    callSid: Type.Optional(Type.String({ description: 'The call the stream carried, when it named one.' })),
                    messages: Type.Integer({ description: 'Finals kept.' }),
                    firstAt: Type.String({ description: 'When its first final was kept (ISO 8601).' }),
                    lastAt: Type.String({ description: 'When its last final was kept (ISO 8601).' }),
                  }),
                ),
              }),
            },
            [400],
          ),
        },
      },
      async (request) => {
        const { callSid, limit, offset } = request.query;
        if (callSid !== undefined) return { callSid, streams: await services.store.streamMessages.streamsOfCall(callSid) };
        const streams = await services.store.streamMessages.streams({ limit, offset });
        return { limit, offset, streams: streams.map(({ callSid: sid, ...s }) => ({ ...s, ...(sid !== null && { callSid: sid }) })) };
      },
    );

    app.get<{ Params: { streamId: string }; Querystring: { afterSequence?: number; limit?: number } }>(
      '/asr/stream/:streamId/messages',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listStreamMessages',
          tags: ['Engine'],
          summary: 'The finals a live stream sent (redacted), kept under its streamId',
          description:
            'Every final realTimeMessage of the stream as it was sent, in sequence order (partials are not kept). 404 when nothing is kept under the id (an unknown stream, or none of its finals yet).',
          params: Type.Object({ streamId: idString() }),
          querystring: Type.Object({
            afterSequence: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Only messages after this sequence number (paging).' })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: MAX_LIMIT, description: `At most this many (1-${MAX_LIMIT}).` })),
          }),
          response: responses({ 200: Answer }, [400, 404]),
        },
      },
      async (request) => {
        const { streamId } = request.params;
        const limit = request.query.limit ?? MAX_LIMIT;
        const page = await services.store.streamMessages.list(streamId, { afterSequence: request.query.afterSequence, limit: limit + 1 });
        if (page.length === 0 && (await services.store.streamMessages.count(streamId)) === 0) throw notFound(`No message of stream "${streamId}" is kept.`);
        const messages = page.slice(0, limit);
        return { streamId, messages, nextAfterSequence: page.length > limit ? messages[messages.length - 1].sequence : null };
      },
    );

    app.delete<{ Params: { streamId: string } }>(
      '/asr/stream/:streamId/messages',
      {
        // The scope that deletes a job deletes a stream's transcript.
        config: { scope: 'submit' },
        schema: {
          operationId: 'deleteStreamMessages',
          tags: ['Engine'],
          summary: 'Delete the finals kept for a live stream',
          description:
            "Removes every kept final of the stream (its after-call job, if any, keeps its own transcript until it is deleted). 404 when nothing is kept under the id.",
          params: Type.Object({ streamId: idString() }),
          response: responses({ 204: Type.Null() }, [404]),
        },
      },
      async (request, reply) => {
        const { streamId } = request.params;
        const removed = await services.store.streamMessages.deleteStream(streamId);
        if (removed === 0) throw notFound(`No message of stream "${streamId}" is kept.`);
        request.log.info({ streamId, messages: removed }, 'deleted the kept transcript of a stream');
        return reply.code(204).send();
      },
    );
  };
}
