// Figures of analysed calls (issue 35, migration 0017): one row per processed post-call record or completed job
// that asked for analysis — the call's sentiment (overall, the agent's, the caller's) and talk time per side, with
// its project, agent, campaign and time. Never text. Search filters by the sentiments; the insight summary counts
// calls, talk time and the caller's sentiment per day, agent or campaign from them.
import { type Kysely, sql } from 'kysely';
import type { GroupBy } from './insightHits.js';
import type { Tables } from './tables.js';

export type FigureKind = 'record' | 'job';
export type Polarity = 'negative' | 'neutral' | 'positive';
export const POLARITIES: readonly Polarity[] = ['negative', 'neutral', 'positive'];

export interface CallFigureRow {
  kind: FigureKind;
  id: string;
  sid: string | null;
  agentId: string | null;
  campaign: string | null;
  createdAt: string;
  sentiment: Polarity | null;
  sentimentAgent: Polarity | null;
  sentimentCaller: Polarity | null;
  talkTimeAgent: number | null;
  talkTimeCaller: number | null;
}

export interface FigureQuery {
  groupBy: GroupBy;
  sid?: string;
  agentId?: string;
  campaign?: string;
  from?: string;
  to?: string;
}

export interface FigureGroup {
  group: string | null;
  /** Analysed calls in the group. */
  calls: number;
  /** Seconds of talk, summed over the calls (calls with roles only). */
  talkTimeAgent: number;
  talkTimeCaller: number;
  /** Calls by the caller's sentiment (calls whose caller's sentiment was measured). */
  callerSentiment: Record<Polarity, number>;
}

/** Most groups a figures query answers. */
export const MAX_FIGURE_GROUPS = 5000;

export class CallFigureStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** The call's figures (replacing an earlier version's). */
  async put(row: CallFigureRow): Promise<void> {
    await this.remove(row.kind, row.id);
    await sql`insert into call_figures (kind, ref_id, sid, agent_id, campaign, created_at, sentiment, sentiment_agent, sentiment_caller, talk_time_agent, talk_time_caller)
      values (${row.kind}, ${row.id}, ${row.sid}, ${row.agentId}, ${row.campaign}, ${row.createdAt}, ${row.sentiment}, ${row.sentimentAgent}, ${row.sentimentCaller}, ${row.talkTimeAgent}, ${row.talkTimeCaller})`.execute(this.db);
  }

  async remove(kind: FigureKind, id: string): Promise<void> {
    await sql`delete from call_figures where kind = ${kind} and ref_id = ${id}`.execute(this.db);
  }

  /** Per group: calls, talk time per side, calls by the caller's sentiment; groups in order (the null group last). */
  async groups(query: FigureQuery): Promise<FigureGroup[]> {
    const group = query.groupBy === 'day' ? sql`substr(created_at, 1, 10)` : query.groupBy === 'agent' ? sql`agent_id` : sql`campaign`;
    const filters = [
      query.sid !== undefined ? sql`and sid = ${query.sid}` : sql``,
      query.agentId !== undefined ? sql`and agent_id = ${query.agentId}` : sql``,
      query.campaign !== undefined ? sql`and campaign = ${query.campaign}` : sql``,
      query.from !== undefined ? sql`and created_at >= ${query.from}` : sql``,
      query.to !== undefined ? sql`and created_at < ${query.to}` : sql``,
    ];
    type Row = { grp: string | null; calls: number | string; agent: number | string | null; caller: number | string | null; negative: number | string; neutral: number | string; positive: number | string };
    const { rows } = await sql<Row>`select ${group} as grp, count(*) as calls,
        coalesce(sum(talk_time_agent), 0) as agent, coalesce(sum(talk_time_caller), 0) as caller,
        sum(case when sentiment_caller = 'negative' then 1 else 0 end) as negative,
        sum(case when sentiment_caller = 'neutral' then 1 else 0 end) as neutral,
        sum(case when sentiment_caller = 'positive' then 1 else 0 end) as positive
      from call_figures where 1 = 1 ${sql.join(filters, sql` `)}
      group by ${group}
      order by ${group} is null, ${group}
      limit ${MAX_FIGURE_GROUPS}`.execute(this.db);
    // PostgreSQL answers sums and counts as text (numeric, bigint): numbers here.
    const round = (n: number) => Math.round(n * 1000) / 1000;
    return rows.map((r) => ({
      group: r.grp,
      calls: Number(r.calls),
      talkTimeAgent: round(Number(r.agent ?? 0)),
      talkTimeCaller: round(Number(r.caller ?? 0)),
      callerSentiment: { negative: Number(r.negative), neutral: Number(r.neutral), positive: Number(r.positive) },
    }));
  }
}
