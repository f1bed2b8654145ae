// What an analysed call keeps for filters and dashboards (issue 35): its sentiment — the call's
// (conversation.sentiment), the agent's and the caller's (analytics.sentiment_agent / _caller) — and talk time per
// side. Names and numbers only, never text. Pure.
import { POLARITY_NAME } from '../conversation/sentiment.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { CallFigureRow, Polarity } from '../store/callFigures.js';

const POLARITIES = new Set<string>(['negative', 'neutral', 'positive']);
const polarity = (v: unknown): Polarity | null => (typeof v === 'string' && POLARITIES.has(v) ? (v as Polarity) : null);
const fromNumber = (v: unknown): Polarity | null => (v === 1 || v === 0 || v === -1 ? POLARITY_NAME[v] : null);
const seconds = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

export type CallIdentity = Pick<CallFigureRow, 'kind' | 'id' | 'sid' | 'agentId' | 'campaign' | 'createdAt'>;

/** The figures of an analysis (analytics and conversation of a post-call record or a job record). */
export function callFigureRow(call: CallIdentity, analytics: EventRecord['analytics'], conversation: EventRecord['conversation']): CallFigureRow {
  const a = (analytics ?? {}) as Record<string, unknown>;
  const c = (conversation ?? {}) as Record<string, unknown>;
  return {
    ...call,
    sentiment: fromNumber(c.sentiment) ?? polarity(c.sentiment),
    sentimentAgent: polarity(a.sentiment_agent),
    sentimentCaller: polarity(a.sentiment_caller),
    talkTimeAgent: seconds(a.talk_time_agent),
    talkTimeCaller: seconds(a.talk_time_caller),
  };
}
