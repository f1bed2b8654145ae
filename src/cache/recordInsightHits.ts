// What a processed post-call record keeps for categories over time (issue 35): each insight run on it (its id
// and match / no_match / compliance_violation, lines found), with the call's project, agent and campaign. Ids
// and counts only, never text. A record that was not processed (failed, or no conversation) keeps none.
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { Repositories } from '../store/index.js';
import type { InsightHit } from '../store/insightHits.js';
import { callFigureRow } from './callFigureRow.js';

const TYPES = new Set(['match', 'no_match', 'compliance_violation']);
const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

export function insightHitsOf(record: EventRecord): InsightHit[] {
  return record.status === 'processed' ? hitsOfAnalytics(record.analytics) : [];
}

/** An analysis' insight results (analytics.insights) as rows: ids, types and line counts. */
export function hitsOfAnalytics(analytics: EventRecord['analytics']): InsightHit[] {
  return (analytics?.insights ?? []).flatMap((i) => {
    const id = text(i.id);
    if (!id || !TYPES.has(String(i.type))) return [];
    return [{ insightId: id, type: String(i.type), lines: typeof i.value === 'number' && Number.isInteger(i.value) && i.value >= 0 ? i.value : 0 }];
  });
}

/**
 * Keep a stored record's insight results and figures (sentiment, talk time), replacing an earlier version's; a
 * record that was not processed keeps neither.
 */
export async function keepInsightHits(tx: Repositories, eventId: string, record: EventRecord, createdAt: string): Promise<void> {
  const sid = record.redactionRequest?.sid ?? record.processJob?.request?.sid;
  const call = {
    kind: 'record' as const,
    id: eventId,
    sid: text(sid),
    agentId: text(record.conversation?.agentId) ?? text(record.realTimeMessage?.agentId),
    campaign: text(record.conversation?.campaignId) ?? text(record.campaign?.campaignId),
    createdAt,
  };
  await tx.insightHits.replace(call, insightHitsOf(record));
  if (record.status === 'processed') await tx.callFigures.put(callFigureRow(call, record.analytics, record.conversation));
  else await tx.callFigures.remove('record', eventId);
}
