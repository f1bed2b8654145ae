// What the transcript shapes need to know about a job, from its row and request parameters.
import { maskCredentials } from '../security/credentials.js';
import type { SecretBox } from '../security/secretBox.js';
import type { JobRow } from '../store/tables.js';
import { type RenderMeta, utteranceOptionsFromParams } from '../transcript/index.js';
import type { TranscribeParams } from './request.js';

export function renderMetaForJob(row: JobRow, box: SecretBox, engineParams: Record<string, unknown> = {}): RenderMeta {
  const params = maskCredentials(JSON.parse(row.params) as TranscribeParams, box);
  const effective = { ...engineParams, ...params };
  return {
    jobId: row.id,
    fileName: row.file_name ?? undefined,
    model: row.model ?? undefined,
    language: params.language,
    createdAt: row.created_at,
    startedAt: row.started_at ?? undefined,
    completedAt: row.completed_at ?? undefined,
    // The request's flags; never its input text or notification target.
    streamtags: Object.fromEntries(Object.entries(params).filter(([key]) => !['text', 'notification', 'webhook', 'wait', 'jobId'].includes(key))),
    numtrans: effective.numtrans !== false,
    punctuate: effective.punctuate !== false,
    trackingId: params.tracking_id,
    agentLocation: params.agent_location,
    direction: params.direction,
    ...utteranceOptionsFromParams({
      uttmaxsilence: effective.uttmaxsilence as number | undefined,
      uttmaxtime: effective.uttmaxtime as number | undefined,
    }),
  };
}
