// Insight results of calls, kept for counting over time (issue 35, migration 0016): one row per insight run on
// a processed post-call record or a completed job that asked for analysis — its id, match / no_match / compliance_violation, lines found — with the call's
// project, agent, campaign and time. Never text. Summaries group them by day, agent or campaign.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from './dialect.js';
import type { Tables } from './tables.js';

export type HitKind = 'record' | 'job';

export interface InsightHit {
  insightId: string;
  /** match | no_match | compliance_violation */
  type: string;
  lines: number;
}

export interface HitCall {
  kind: HitKind;
  id: string;
  sid: string | null;
  agentId: string | null;
  campaign: string | null;
  createdAt: string;
}

export type GroupBy = 'day' | 'agent' | 'campaign';

export interface SummaryQuery {
  groupBy: GroupBy;
  sid?: string;
  agentId?: string;
  campaign?: string;
  insightId?: string;
  from?: string;
  to?: string;
}

export interface SummaryRow {
  /** The day (YYYY-MM-DD, UTC), the agent or the campaign; null: calls that carry none. */
  group: string | null;
  insightId: string;
  /** Calls the insight ran on, matched on, was a compliance violation on. */
  calls: number;
  matched: number;
  violations: number;
  /** Lines found over those calls. */
  lines: number;
}

/** Most rows a summary answers: groups × insights, bounded so a wide range cannot answer without end. */
export const MAX_SUMMARY_ROWS = 5000;

export class InsightHitStore {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * The call's insight results (replacing what an earlier version of it had). Called inside a transaction; on
   * PostgreSQL two replaces of one call (a record updated twice at once, the start-up backfill in two processes)
   * are serialized by an advisory lock on the call, so neither inserts beside the other's rows (a delete does not
   * see rows another transaction has not committed). The call's figures (callFigures.put) come after, under it.
   */
  async replace(call: HitCall, hits: readonly InsightHit[]): Promise<void> {
    if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${`${call.kind}:${call.id}`}, 0))`.execute(this.db);
    await this.remove(call.kind, call.id);
    for (const h of hits) {
      await sql`insert into insight_hits (kind, ref_id, insight_id, type, lines, sid, agent_id, campaign, created_at)
        values (${call.kind}, ${call.id}, ${h.insightId}, ${h.type}, ${h.lines}, ${call.sid}, ${call.agentId}, ${call.campaign}, ${call.createdAt})`.execute(this.db);
    }
  }

  async remove(kind: HitKind, id: string): Promise<void> {
    await sql`delete from insight_hits where kind = ${kind} and ref_id = ${id}`.execute(this.db);
  }

  /** Counts per group and insight, groups in order (days ascending; the null group last), insights by id. */
  async summary(query: SummaryQuery): Promise<SummaryRow[]> {
    // created_at is ISO 8601 UTC text: its first ten characters are the day, the same on both databases.
    const group = query.groupBy === 'day' ? sql`substr(created_at, 1, 10)` : query.groupBy === 'agent' ? sql`agent_id` : sql`campaign`;
    const filters = [
      query.sid !== undefined ? sql`and sid = ${query.sid}` : sql``,
      query.agentId !== undefined ? sql`and agent_id = ${query.agentId}` : sql``,
      query.campaign !== undefined ? sql`and campaign = ${query.campaign}` : sql``,
      query.insightId !== undefined ? sql`and insight_id = ${query.insightId}` : sql``,
      query.from !== undefined ? sql`and created_at >= ${query.from}` : sql``,
      query.to !== undefined ? sql`and created_at < ${query.to}` : sql``,
    ];
    type Row = { grp: string | null; insight_id: string; calls: number | string; matched: number | string; violations: number | string; lines: number | string };
    const { rows } = await sql<Row>`select ${group} as grp, insight_id,
        count(distinct ref_id) as calls,
        count(distinct case when type = 'match' then ref_id end) as matched,
        count(distinct case when type = 'compliance_violation' then ref_id end) as violations,
        coalesce(sum(lines), 0) as lines
      from insight_hits where 1 = 1 ${sql.join(filters, sql` `)}
      group by ${group}, insight_id
      order by ${group} is null, ${group}, insight_id
      limit ${MAX_SUMMARY_ROWS}`.execute(this.db);
    // PostgreSQL answers counts as text (bigint): numbers here.
    return rows.map((r) => ({ group: r.grp, insightId: r.insight_id, calls: Number(r.calls), matched: Number(r.matched), violations: Number(r.violations), lines: Number(r.lines) }));
  }
}
