// Row types of the SQL store. JSON documents are kept as text so that SQLite and PostgreSQL share one code
// path; timestamps are ISO 8601 strings for the same reason.
import type { Generated } from 'kysely';

export interface ApiKeyRow {
  id: string;
  name: string;
  scope: string;
  key_hash: string;
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface ParameterRow {
  /** '' for a system parameter, else the project sid. */
  sid: string;
  name: string;
  value: string;
  updated_at: string;
}

export interface ProjectVersionRow {
  sid: string;
  version: number;
  config: string;
  published_at: string;
}

export interface ConversationRow {
  event_id: string;
  conversation_id: string | null;
  job_id: string | null;
  status: string;
  record: string;
  size: number;
  created_at: string;
  updated_at: string;
  /** When the record is deleted (the shorter of its campaign's and its project's retentionPolicy), ISO time; null: kept. */
  delete_after: string | null;
}

export interface LiveMessageRow {
  id: Generated<number>;
  conversation_key: string;
  message: string;
  received_at: string;
  /** JSON: the policy the message was redacted under and the kind its final digit group was masked as (never a value). Optional for rows before migration 0013. */
  redaction?: string | null;
}

export interface EventRow {
  id: string;
  type: string;
  sub_type: string;
  subject: string | null;
  /** The job the event is about while that job exists (foreign key, set to null when it is deleted). */
  job_id: string | null;
  record: string;
  created_at: string;
}

export interface JobRow {
  id: string;
  status: string;
  redaction_status: string;
  priority: number;
  sid: string | null;
  model: string | null;
  file_name: string | null;
  /** Where the upload is kept (audio jobs), relative to the data directory. */
  audio_path: string | null;
  input_kind: string;
  /** The processJob record (resource 6) as submitted, credentials sealed. */
  record: string;
  /** Parameters of the request (engine parameters, types, notification...), credentials sealed. */
  params: string;
  attempts: number;
  last_error: string | null;
  /** The process running the job (a random id per process). */
  worker_id: string | null;
  /** The current claim (JobRun.runId): the fencing token of the run's writes; new at every claim. */
  run_id: string | null;
  /** Until when the run's claim holds, on the database's clock. */
  lease_until: string | null;
  audio_seconds: number | null;
  processing_seconds: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** When the job's data is deleted (retentionPolicy), ISO time. */
  delete_after: string | null;
  /**
   * When insights were produced for the job (ISO time); null until then. `insightsProcessed` is derived from it
   * (issue 18 sets it with the insights). Optional for rows written before migration 0006.
   */
  insights_completed_at?: string | null;
  /** The request's tracking_id (the client's reference), for listing by it. Optional for rows before migration 0007. */
  tracking_id?: string | null;
  /** The telephony call's id (callSid), for listing by it. Optional for rows before migration 0012. */
  call_sid?: string | null;
  /**
   * The redaction record of a job whose redaction failed (JSON: kinds and times, never a value), null otherwise.
   * Optional for rows written before migration 0014.
   */
  redaction_failure?: string | null;
}

export interface JobResultRow {
  job_id: string;
  /** The internal Transcript (src/transcript/types.ts) as JSON; the redacted one when redaction ran. */
  transcript: string;
  /** Redaction of the transcript: {rules, spans} (kinds and times, never values), or null. */
  redaction: string | null;
  created_at: string;
}

export interface DeliveryRow {
  /** Stable delivery id: the Standard Webhooks `webhook-id`, the same on every attempt. */
  id: string;
  job_id: string;
  url: string;
  method: string;
  /** "Name: value" header lines, sealed. */
  headers: string;
  /** The event record (resource 1) delivered, as JSON. */
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  /** JSON array of {at, statusCode?, error?, durationMs}. */
  log: string;
  created_at: string;
  updated_at: string;
}

/**
 * A process that runs jobs, as it last reported itself (every few seconds, with the database's clock): what
 * /asr/maxstreamscheck and /asr/status sum over the cluster. A row whose heartbeat is stale is a process gone.
 */
export interface WorkerProcessRow {
  /** The process's worker id. */
  id: string;
  /** `serve` (API and workers) or `worker`. */
  role: string;
  host: string;
  pid: number;
  /** Jobs it runs at once (SCRUBLINE_WORKERS), and runs now. */
  job_slots: number;
  jobs_running: number;
  /** Streams it accepts (SCRUBLINE_MAX_STREAMS), decoders (pool size), at work and tasks waiting. */
  max_streams: number;
  decoders: number;
  decoders_busy: number;
  decoders_waiting: number;
  started_at: string;
  /** ISO time by the database's clock. */
  heartbeat_at: string;
}

/** A live stream open in some process (refreshed every few seconds; a stale row is a process gone). */
/** A final a live stream sent (redacted), kept under the stream's id. */
export interface StreamMessageRow {
  stream_id: string;
  /** The message's sequence number in its stream (shared with partials: gaps are partials). */
  sequence: number;
  channel: number;
  /** The realTimeMessage frame as sent (JSON). */
  message: string;
  created_at: string;
  /** When the message is deleted (a stream without a job, under a project's retentionPolicy), ISO time; null: kept. */
  delete_after: string | null;
  /** The call the stream carried (a Twilio CallSid), when known. Optional for rows before migration 0012. */
  call_sid?: string | null;
}

export interface LiveStreamRow {
  id: string;
  process_id: string;
  /** The admitting process's SCRUBLINE_MAX_STREAMS. */
  process_capacity: number;
  /** `scrubline` or `twilio`. */
  protocol: string;
  started_at: string;
  heartbeat_at: string;
}

export interface Tables {
  api_keys: ApiKeyRow;
  parameters: ParameterRow;
  project_versions: ProjectVersionRow;
  conversations: ConversationRow;
  live_messages: LiveMessageRow;
  events: EventRow;
  jobs: JobRow;
  job_results: JobResultRow;
  deliveries: DeliveryRow;
  worker_processes: WorkerProcessRow;
  live_streams: LiveStreamRow;
  stream_messages: StreamMessageRow;
}
