// What the output shapes need to know about the job besides the words: identifiers, dates, request flags and
// the options that decide utterances, roles and formatting. Every field is optional, so the same renderers
// serve a transcription job, a post-call record and a test.

export type DateInput = string | number | Date;

export interface RenderMeta {
  /** The job's id: vendor `requestid`, json-v2 `job.id`, resource 11 `jobId`. */
  jobId?: string;
  /** Name of the source recording: vendor `source`, utterance `metadata.source`, json-v2 `job.data_name`. */
  fileName?: string;
  /** `language:name`; defaults to the transcript's model. */
  model?: string;
  /** Language code (e.g. `en-us`); defaults to the transcript's language. */
  language?: string;
  /** When the job was received (vendor `recvdate`, json-v2 `job.created_at`). */
  createdAt?: DateInput;
  /** When recognition started (vendor `started`); defaults to createdAt. */
  startedAt?: DateInput;
  /** When the transcript was finished (vendor `donedate`/`ended`, json-v2 `metadata.created_at`). */
  completedAt?: DateInput;
  /**
   * The request's flags, echoed by the vendor shapes' `streamtags` (form fields may arrive as strings:
   * declared booleans are coerced from "true"/"false"/"1"/"0"). Credential-like keys are never echoed.
   */
  streamtags?: Record<string, unknown>;
  /** Spoken numbers to digits in formattedText, text, SRT and VTT. */
  numtrans?: boolean;
  /** Full stop at the end of each utterance (json-v2 punctuation results; capitalised formatted text). */
  punctuate?: boolean;
  /** json-v2 `job.tracking.reference` (the request's tracking_id). */
  trackingId?: string;
  /** Resource 11 campaignId. */
  campaignId?: string;
  /** Resource 11 conversationId (a UUID). */
  conversationId?: string;
  /** Campaign `agentLocation` / project `agent_location`: 'left' (default) or 'right'. */
  agentLocation?: string;
  /** Campaign/job direction (inbound/outbound); accepted, does not move the agent (see roles.ts). */
  direction?: string;
  /** Campaign `channelDiarizationLabels`, e.g. "agent,caller" (used when agentLocation is absent). */
  channelLabels?: string;
  /** Utterance splitting; defaults from uttmaxsilence (800 ms) and uttmaxtime (60 s). */
  maxSilenceSeconds?: number;
  maxUtteranceSeconds?: number;
  /** Prefix text lines and SRT cues with the speaker's role; default: when the recording has 2+ channels. */
  speakerPrefix?: boolean;
}

function toDate(value: DateInput): Date | undefined {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** ISO 8601 (json-v2 dates). */
export function isoDate(value: DateInput | undefined): string | undefined {
  if (value === undefined) return undefined;
  return toDate(value)?.toISOString();
}

/** V-Blaze style `YYYY-MM-DD HH:MM:SS.mmm`, in UTC (the vendor shapes say so with recvtz ['UTC', 0]). */
export function vendorDate(value: DateInput | undefined): string | undefined {
  const iso = isoDate(value);
  return iso === undefined ? undefined : iso.replace('T', ' ').replace('Z', '');
}

/** Rounded to the millisecond (computed figures; word times themselves are passed through untouched). */
export const round3 = (value: number): number => Math.round(value * 1000) / 1000;
