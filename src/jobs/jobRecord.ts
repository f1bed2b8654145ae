// A job as the interface shows it: the processJob record (resource 6), built from the stored row, the
// request as submitted (credentials masked) and, once complete, the transcript shapes.
import type { JobAnalysis } from './jobAnalysis.js';
import { engineOfModel } from '../engine/models.js';
import type { ProcessJob } from '../schema/resources/processJob.js';
import { maskCredentials } from '../security/credentials.js';
import type { SecretBox } from '../security/secretBox.js';
import type { JobRow } from '../store/tables.js';
import { maskedUrl } from './notifications/target.js';
import type { TranscribeParams } from './request.js';

export interface JobExtras {
  vendorATranscript?: ProcessJob['vendorATranscript'];
  transcript?: ProcessJob['transcript'];
  transcriptRedacted?: ProcessJob['transcriptRedacted'];
  /** What redaction did: rules applied and spans (kinds and times, never values). */
  redaction?: unknown;
  /** Analytics and insights (issue 18), when the job asked for them. */
  analysis?: JobAnalysis;
  /** Notification deliveries of the job (attempts, status codes, next try). */
  deliveries?: unknown[];
}

export function priorityLabel(priority: number): string {
  if (priority >= 10) return 'high';
  if (priority <= -10) return 'low';
  return priority === 0 ? 'normal' : String(priority);
}

export function jobRecord(row: JobRow, box: SecretBox, extras: JobExtras = {}): ProcessJob & Record<string, unknown> {
  const submitted = maskCredentials(JSON.parse(row.record) as ProcessJob, box);
  const params = maskCredentials(JSON.parse(row.params) as TranscribeParams, box);
  // Hook urls carry tokens in their query or userinfo: shown masked (the full url stays in the stored params).
  const given = params.notification ?? (params.webhook ? { url: params.webhook, method: 'POST' } : undefined);
  const notification = given && { ...given, ...(typeof given.url === 'string' && { url: maskedUrl(given.url) }) };
  const webhook = typeof params.webhook === 'string' ? maskedUrl(params.webhook) : undefined;
  return {
    ...submitted,
    _id: row.id,
    jobId: row.id,
    status: row.status,
    ...(row.last_error && { message: row.last_error }),
    fileName: row.file_name ?? undefined,
    // The engine of the model the job runs on (the model it ran on, once it ran): a sherpa-onnx model says so.
    engine: row.input_kind === 'text' ? 'text' : engineOfModel(row.model),
    language: params.language ?? row.model?.split(':')[0] ?? 'en-us',
    jobType: row.input_kind === 'text' ? 'text' : 'audio',
    priority: priorityLabel(row.priority),
    ...(row.audio_seconds !== null && { duration: row.audio_seconds }),
    createdAt: row.created_at,
    ...(row.completed_at && { completedAt: row.completed_at }),
    redactionStatus: row.redaction_status,
    redactionEnabled: row.redaction_status !== 'not_requested',
    doWebhook: notification !== undefined,
    webhookCompleted: (extras.deliveries ?? []).some((d) => (d as { status?: string }).status === 'delivered'),
    // Insights (issue 18) mark the job when they were produced for it; nothing else sets this.
    insightsProcessed: row.insights_completed_at != null,
    request: {
      ...submitted.request,
      ...(params.sid && { sid: params.sid }),
      ...(params.language && { language: params.language }),
      ...(params.tracking_id && { tracking_id: params.tracking_id }),
      // The telephony call it belongs to: what finds the call's other jobs and its live streams.
      ...(params.callSid && { callSid: params.callSid }),
      ...(params.types && { types: params.types }),
      ...(params.insights && { insights: params.insights }),
      ...(notification && { notification }),
    },
    ...(webhook && { webhook }),
    // Beyond the interface: what the service knows that a caller needs.
    // Where its results are written in a client's bucket (bucket and key prefix, resolved at submit; no credentials).
    ...(resultsFolder(params.transcriptOutput, row.id) && { resultsFolder: resultsFolder(params.transcriptOutput, row.id) }),
    model: row.model ?? undefined,
    attempts: row.attempts,
    updatedAt: row.updated_at,
    ...(row.started_at && { startedAt: row.started_at }),
    ...(row.processing_seconds !== null && { processingSeconds: row.processing_seconds }),
    ...(extras.vendorATranscript && { vendorATranscript: extras.vendorATranscript }),
    ...(extras.transcript && { transcript: extras.transcript }),
    ...(extras.transcriptRedacted && { transcriptRedacted: extras.transcriptRedacted }),
    ...(extras.redaction !== undefined && { redaction: extras.redaction }),
    ...(extras.deliveries && { notifications: extras.deliveries }),
    ...extras.analysis,
  };
}

/** "s3://bucket/prefix/<job id>/" for an output folder kept in full ("s3://bucket/prefix/"), else undefined. */
function resultsFolder(output: string | undefined, jobId: string): string | undefined {
  const match = typeof output === 'string' ? /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.*)$/.exec(output) : null;
  if (!match) return undefined;
  const prefix = match[2] === '' || match[2].endsWith('/') ? match[2] : `${match[2]}/`;
  return `s3://${match[1]}/${prefix}${jobId}/`;
}
