// GET /asr/insights/summary (issue 35): categories over time across calls — how many calls each insight ran on,
// matched on and was a compliance violation on, per day, per agent or per campaign, from the insight results
// processed post-call records and analysed jobs keep (store/insightHits.ts). Ids and counts only: no text of any call, so nothing
// a redaction masked can come back.
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { idString, isoParam, isoTime } from '../../schema/bounds.js';
import { MAX_FIGURE_GROUPS } from '../../store/callFigures.js';
import { type GroupBy, MAX_SUMMARY_ROWS } from '../../store/insightHits.js';
import type { Services } from '../../services.js';
import { responses } from '../schemas.js';

interface SummaryParams {
  groupBy: GroupBy;
  sid?: string;
  agent?: string;
  campaign?: string;
  insight?: string;
  from?: string;
  to?: string;
}

export function insightSummaryRoutes(services: Services): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: SummaryParams }>(
      '/asr/insights/summary',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'insightSummary',
          tags: ['jobs'],
          summary: 'Insight (category) results counted across calls, per day, agent or campaign',
          description:
            'For each group and insight: `calls` the insight ran on, `matched` (type match), `violations` (type compliance_violation) and `lines` found, ' +
            "from processed post-call records (a live stream's ended conversation included) and completed jobs that asked for analysis. `groupBy`: `day` (UTC, YYYY-MM-DD), `agent` (a record's " +
            "`conversation.agentId`, else `realTimeMessage.agentId`; a job's `agent`) or `campaign` (`conversation.campaignId`, else `campaign.campaignId`; a job's `campaign`); a call with none is in the group null. " +
            `Filters: \`sid\`, \`agent\`, \`campaign\`, \`insight\` (an insight id), \`from\` (at or after), \`to\` (before). At most ${MAX_SUMMARY_ROWS} rows (\`truncated\` says so). ` +
            '`calls`: per group (same grouping and filters but `insight`), the analysed calls, their talk time per side (seconds, summed; calls with roles only) and how many had each caller sentiment (calls whose sentiment was measured). ' +
            'Ids and counts only, never text.',
          querystring: Type.Object({
            groupBy: Type.Union([Type.Literal('day'), Type.Literal('agent'), Type.Literal('campaign')], { default: 'day', description: 'day | agent | campaign' }),
            sid: Type.Optional(idString({ description: 'Only calls of this project.' })),
            agent: Type.Optional(idString({ description: 'Only calls of this agent.' })),
            campaign: Type.Optional(idString({ description: 'Only calls of this campaign.' })),
            insight: Type.Optional(idString({ description: 'Only this insight (its id).' })),
            from: Type.Optional(isoTime('Only calls stored at or after this time (ISO 8601 date-time, or a date: its midnight UTC).')),
            to: Type.Optional(isoTime('Only calls stored before this time (ISO 8601 date-time, or a date: its midnight UTC).')),
          }),
          response: responses(
            {
              200: Type.Object({
                groupBy: Type.String(),
                truncated: Type.Boolean(),
                groups: Type.Array(
                  Type.Object({
                    group: Type.Union([Type.String(), Type.Null()], { description: 'The day, agent or campaign; null: calls that carry none.' }),
                    insights: Type.Array(
                      Type.Object({
                        id: Type.String(),
                        calls: Type.Integer(),
                        matched: Type.Integer(),
                        violations: Type.Integer(),
                        lines: Type.Integer(),
                      }),
                    ),
                  }),
                ),
                calls: Type.Array(
                  Type.Object({
                    group: Type.Union([Type.String(), Type.Null()], { description: 'The day, agent or campaign; null: calls that carry none.' }),
                    calls: Type.Integer({ description: 'Analysed calls.' }),
                    talkTimeAgent: Type.Number({ description: "The agents' talk time, seconds, summed." }),
                    talkTimeCaller: Type.Number({ description: "The callers' talk time, seconds, summed." }),
                    callerSentiment: Type.Object(
                      { negative: Type.Integer(), neutral: Type.Integer(), positive: Type.Integer() },
                      { description: "Calls by the caller's sentiment." },
                    ),
                  }),
                ),
              }),
            },
            [400],
          ),
        },
      },
      async (request) => {
        const { groupBy } = request.query;
        const from = isoParam(request.query.from, 'from');
        const to = isoParam(request.query.to, 'to');
        const rows = await services.store.insightHits.summary({
          groupBy,
          sid: request.query.sid,
          agentId: request.query.agent,
          campaign: request.query.campaign,
          insightId: request.query.insight,
          from,
          to,
        });
        const calls = await services.store.callFigures.groups({ groupBy, sid: request.query.sid, agentId: request.query.agent, campaign: request.query.campaign, from, to });
        const groups: { group: string | null; insights: { id: string; calls: number; matched: number; violations: number; lines: number }[] }[] = [];
        for (const r of rows) {
          const last = groups[groups.length - 1];
          const entry = { id: r.insightId, calls: r.calls, matched: r.matched, violations: r.violations, lines: r.lines };
          if (last && last.group === r.group) last.insights.push(entry);
          else groups.push({ group: r.group, insights: [entry] });
        }
        return { groupBy, truncated: rows.length >= MAX_SUMMARY_ROWS || calls.length >= MAX_FIGURE_GROUPS, groups, calls };
      },
    );
  };
}
