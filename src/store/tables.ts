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
}

export interface LiveMessageRow {
  id: Generated<number>;
  conversation_key: string;
  message: string;
  received_at: string;
}

export interface EventRow {
  id: string;
  type: string;
  sub_type: string;
  subject: string | null;
  record: string;
  created_at: string;
}

export interface Tables {
  api_keys: ApiKeyRow;
  parameters: ParameterRow;
  project_versions: ProjectVersionRow;
  conversations: ConversationRow;
  live_messages: LiveMessageRow;
  events: EventRow;
}
