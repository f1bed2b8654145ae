// Full-text search over redacted transcripts (issue 35), with each database's own text search: SQLite FTS5 over
// search_entries (external content, kept in step by triggers), PostgreSQL a tsvector column with a GIN index.
// Only text that finished redaction is ever written here (jobs/searchIndex.ts); deleting a job or a record
// deletes its entry (database triggers, so every path — API, retention — does).
import { type Kysely, sql } from 'kysely';
import type { Dialect } from './dialect.js';
import type { Polarity } from './callFigures.js';
import type { Tables } from './tables.js';

export type SearchKind = 'job' | 'record';

export interface SearchEntry {
  kind: SearchKind;
  id: string;
  sid: string | null;
  agentId: string | null;
  campaign: string | null;
  createdAt: string;
  /** The redacted text: never anything else. */
  body: string;
}

export interface SearchQuery {
  /** The words to find, all of them (already split: see searchWords); none: every indexed call, by the filters. */
  words: string[];
  sid?: string;
  agentId?: string;
  campaign?: string;
  from?: string;
  to?: string;
  /** An insight (its id) that matched on the call (insight_hits). */
  category?: string;
  /** An insight (its id) that was a compliance violation on the call (insight_hits). */
  violation?: string;
  /** The call's sentiment, the agent's, the caller's (call_figures). */
  sentiment?: Polarity;
  agentSentiment?: Polarity;
  callerSentiment?: Polarity;
  limit: number;
  offset: number;
}

/** Characters of a call's redacted text shown when it was listed by filters alone (no words to place). */
const OPENING = 160;

export interface SearchHit {
  kind: SearchKind;
  id: string;
  createdAt: string;
  snippet: string;
  agentId: string | null;
  campaign: string | null;
}

/** Most words a query may hold: each is one term of an AND. */
export const MAX_SEARCH_WORDS = 16;

/**
 * A query as words: runs of letters and digits, lower-cased. Everything else (quotes, operators, parentheses,
 * NEAR, column filters) is a separator, so no user input reaches either database as query syntax.
 */
export function searchWords(q: string): string[] {
  return [...new Set((q.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []))].slice(0, MAX_SEARCH_WORDS);
}

export class SearchStore {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
  ) {}

  /** Index (or index again) a call's redacted text. */
  async put(entry: SearchEntry): Promise<void> {
    await this.remove(entry.kind, entry.id);
    await sql`insert into search_entries (kind, ref_id, sid, agent_id, campaign, created_at, body)
      values (${entry.kind}, ${entry.id}, ${entry.sid}, ${entry.agentId}, ${entry.campaign}, ${entry.createdAt}, ${entry.body})`.execute(this.db);
  }

  async remove(kind: SearchKind, id: string): Promise<void> {
    await sql`delete from search_entries where kind = ${kind} and ref_id = ${id}`.execute(this.db);
  }

  /** Calls holding every word, newest first. */
  async search(query: SearchQuery): Promise<SearchHit[]> {
    const hit = (insightId: string, type: string) =>
      sql`and exists (select 1 from insight_hits h where h.kind = e.kind and h.ref_id = e.ref_id and h.insight_id = ${insightId} and h.type = ${type})`;
    const figure = (column: 'sentiment' | 'sentiment_agent' | 'sentiment_caller', value: Polarity) =>
      sql`and exists (select 1 from call_figures f where f.kind = e.kind and f.ref_id = e.ref_id and ${sql.ref(`f.${column}`)} = ${value})`;
    const filters = [
      query.category !== undefined ? hit(query.category, 'match') : sql``,
      query.violation !== undefined ? hit(query.violation, 'compliance_violation') : sql``,
      query.sentiment !== undefined ? figure('sentiment', query.sentiment) : sql``,
      query.agentSentiment !== undefined ? figure('sentiment_agent', query.agentSentiment) : sql``,
      query.callerSentiment !== undefined ? figure('sentiment_caller', query.callerSentiment) : sql``,
      query.sid !== undefined ? sql`and e.sid = ${query.sid}` : sql``,
      query.agentId !== undefined ? sql`and e.agent_id = ${query.agentId}` : sql``,
      query.campaign !== undefined ? sql`and e.campaign = ${query.campaign}` : sql``,
      query.from !== undefined ? sql`and e.created_at >= ${query.from}` : sql``,
      query.to !== undefined ? sql`and e.created_at < ${query.to}` : sql``,
    ];
    const where = sql.join(filters, sql` `);
    type Row = { kind: SearchKind; ref_id: string; created_at: string; snippet: string | null; agent_id: string | null; campaign: string | null };
    let rows: Row[];
    if (query.words.length === 0) {
      // Filters alone: the newest calls indexed, each with the opening of its redacted text.
      const { rows: found } = await sql<Row>`select e.kind, e.ref_id, e.created_at, e.agent_id, e.campaign, substr(e.body, 1, ${OPENING}) as snippet
        from search_entries e where 1 = 1 ${where}
        order by e.created_at desc, e.kind, e.ref_id limit ${query.limit} offset ${query.offset}`.execute(this.db);
      rows = found;
    } else if (this.dialect === 'postgres') {
      // Each word a quoted lexeme: to_tsquery sees no operator from the client.
      const tsquery = query.words.map((w) => `'${w}'`).join(' & ');
      const { rows: found } = await sql<Row>`select e.kind, e.ref_id, e.created_at, e.agent_id, e.campaign,
          ts_headline('simple', e.body, q.query, 'StartSel="",StopSel="",MaxWords=24,MinWords=8,ShortWord=1') as snippet
        from search_entries e, (select to_tsquery('simple', ${tsquery}) as query) q
        where e.tsv @@ q.query ${where}
        order by e.created_at desc, e.kind, e.ref_id limit ${query.limit} offset ${query.offset}`.execute(this.db);
      rows = found;
    } else {
      // Each word a quoted FTS5 string: an AND of literal terms, whatever the client typed.
      const match = query.words.map((w) => `"${w}"`).join(' ');
      const { rows: found } = await sql<Row>`select e.kind, e.ref_id, e.created_at, e.agent_id, e.campaign,
          snippet(search_fts, 0, '', '', '…', 24) as snippet
        from search_fts join search_entries e on e.rowid = search_fts.rowid
        where search_fts match ${match} ${where}
        order by e.created_at desc, e.kind, e.ref_id limit ${query.limit} offset ${query.offset}`.execute(this.db);
      rows = found;
    }
    return rows.map((r) => ({ kind: r.kind, id: r.ref_id, createdAt: r.created_at, snippet: r.snippet ?? '', agentId: r.agent_id, campaign: r.campaign }));
  }
}
