// A job's notification deliveries: the list (as the job record's `notifications` shows it) and redelivery of
// one that failed. Urls are shown without query or credentials; the log holds status codes and error classes.
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { notFound, ServiceError } from '../../errors.js';
import { RedeliverError } from '../../jobs/notifications/index.js';
import { DELIVERY_STATUSES } from '../../store/deliveries.js';
import type { Services } from '../../services.js';
import { responses } from '../schemas.js';

const DeliveryAttempt = Type.Object({
  at: Type.String({ format: 'date-time' }),
  statusCode: Type.Optional(Type.Integer({ description: 'The status the receiver answered.' })),
  error: Type.Optional(
    Type.String({ description: 'Why no usable answer came, as a class: "refused: target not allowed", "connection failed", "timeout…", or why it was given up.' }),
  ),
  durationMs: Type.Optional(Type.Number()),
  interrupted: Type.Optional(Type.Literal(true)),
  requeued: Type.Optional(Type.Literal(true, { description: 'Not an attempt: the failed delivery was queued again (redeliver).' })),
});

export const NotificationDelivery = Type.Object(
  {
    deliveryId: Type.String({ description: 'Also the webhook-id header of every attempt.' }),
    url: Type.String({ description: 'The target without its query string or credentials.' }),
    method: Type.String(),
    status: Type.Enum([...DELIVERY_STATUSES]),
    attempts: Type.Integer({ description: 'Attempts in the current round (a redelivery starts a new one).' }),
    maxAttempts: Type.Integer(),
    nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()]),
    authHeaders: Type.Array(Type.String(), { description: 'Header lines, values masked.' }),
    log: Type.Array(DeliveryAttempt),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { description: 'One notification delivery of a job' },
);

export function notificationRoutes(services: Services): FastifyPluginAsync {
  const tags = ['jobs'];
  // Ids the service makes (uuids, msg_… ids): anything else (a NUL byte, a megabyte) is a 400, not a query.
  const Id = (description: string) => Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description });
  const JobParams = Type.Object({ jobId: Id('The job') });
  const DeliveryParams = Type.Object({ jobId: Id('The job'), deliveryId: Id("The delivery's id (its webhook-id)") });

  return async (app) => {
    app.get<{ Params: { jobId: string } }>(
      '/asr/jobs/:jobId/notifications',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listJobNotifications',
          tags,
          summary: "A job's notification deliveries: status, attempts, status codes and error classes",
          params: JobParams,
          response: responses({ 200: Type.Object({ notifications: Type.Array(NotificationDelivery) }) }, [400, 404]),
        },
      },
      async (request) => {
        const job = await services.jobs.get(request.params.jobId);
        return { notifications: await services.outbox.deliveriesFor(job.id) };
      },
    );

    app.post<{ Params: { jobId: string; deliveryId: string } }>(
      '/asr/jobs/:jobId/notifications/:deliveryId/redeliver',
      {
        config: { scope: 'submit' },
        schema: {
          operationId: 'redeliverNotification',
          tags,
          summary: 'Send a failed notification delivery again',
          description:
            'For a delivery that failed (retries used up, a final status, or a refused target): queues a new round of attempts, ' +
            'due at once, with the same webhook-id. 409 when the delivery has not failed (pending, sending or delivered).',
          params: DeliveryParams,
          response: responses({ 202: NotificationDelivery }, [400, 404, 409]),
        },
      },
      async (request, reply) => {
        const { jobId, deliveryId } = request.params;
        const job = await services.jobs.get(jobId);
        try {
          const delivery = await services.outbox.redeliver(job.id, deliveryId);
          reply.code(202);
          return delivery;
        } catch (error) {
          if (!(error instanceof RedeliverError)) throw error;
          if (error.reason === 'not_found') throw notFound(error.message);
          throw new ServiceError('conflict', error.message);
        }
      },
    );
  };
}
