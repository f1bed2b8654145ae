// A job as the jobs routes answer it: the processJob record with the values this service gives its state fields
// spelled out, so generated clients get unions rather than bare strings. processJob itself stays as open as
// records posted by other systems need (post-call carries theirs, with their own status words).
import Type, { type TSchema } from 'typebox';
import { ident } from './fields.js';
import { ProcessJob } from './resources/processJob.js';

export const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export const REDACTION_STATUSES = ['not_requested', 'pending', 'completed', 'failed'] as const;
export const PRIORITY_LABELS = ['high', 'normal', 'low'] as const;

export const Job = {
  ...ProcessJob,
  title: 'job',
  description: 'A transcription job (processJob) as this service answers it.',
  properties: {
    ...ProcessJob.properties,
    status: Type.Enum([...JOB_STATUSES], { description: 'queued → processing → completed | failed; queued | processing → cancelled.' }),
    redactionStatus: Type.Enum([...REDACTION_STATUSES], {
      description: 'not_requested, pending (asked, not finished), completed (the stored transcript and audio are the redacted ones) or failed.',
    }),
    priority: Type.Union([Type.Enum([...PRIORITY_LABELS]), ident({ pattern: '^-?[0-9]{1,3}$' })], {
      description: 'high (10 and above), low (-10 and below), normal (0), else the number as given (-100..100).',
    }),
  },
} as unknown as TSchema;
