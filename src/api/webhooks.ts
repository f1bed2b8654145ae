// The notification a job sends when it ends, as an OpenAPI 3.1 webhook: what a receiver is sent (the terminal
// event record carrying the job) and how it is signed (src/jobs/notifications/signing.ts, Standard Webhooks).
const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The delivery id: the same on every attempt of a delivery, to de-duplicate by.' },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt; refuse one far from your clock (replay protection).' },
  {
    name: 'webhook-signature',
    description: '`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the `whsec_` secret (SCRUBLINE_WEBHOOK_SECRET); several may be space-separated.',
  },
].map(({ name, description }) => ({ name, in: 'header' as const, required: true, description, schema: { type: 'string' as const } }));

function delivery(method: 'POST' | 'PUT') {
  return {
    operationId: `jobNotification${method === 'POST' ? 'Post' : 'Put'}`,
    summary: `A job's terminal event, sent with ${method} to notification.url`,
    description:
      "Sent when a job completes, fails or is cancelled, to the job's `notification.url` (or `webhook`) with `notification.method` " +
      '(POST by default) and its `auth_headers`. The body is the terminal event record with `processJob`, the job (credentials masked, ' +
      'without its transcripts: fetch them from /asr/jobs/{jobId}/transcript). A 2xx answer settles the delivery; network errors, ' +
      '408, 429 (honouring Retry-After) and 5xx are retried for about a day, with the same webhook-id.',
    tags: ['notifications'],
    parameters: SIGNATURE_HEADERS,
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/EventRecord' } } } },
    responses: {
      '2XX': { description: 'Received: the delivery is settled.' },
      default: { description: 'Anything else: retried (network errors, 408, 429, 5xx) or failed (other statuses, redirects).' },
    },
    security: [],
  };
}

/** The `webhooks` entry of the OpenAPI document. */
export const WEBHOOKS = { jobNotification: { post: delivery('POST'), put: delivery('PUT') } };
