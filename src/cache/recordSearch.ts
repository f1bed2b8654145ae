// What a post-call record puts in the search index (issue 35): its utterances' text as stored, and only when
// the record was redacted (its policy had rules to run); a record stored as sent is not indexed.
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { Repositories } from '../store/index.js';

/** Index a stored (redacted) record, or take an earlier version of it out when this one was not redacted. */
export async function indexRecord(tx: Repositories, eventId: string, record: EventRecord, redacted: boolean, createdAt: string): Promise<void> {
  const body = (record.utterances ?? [])
    .map((u) => u.text)
    .filter((text): text is string => typeof text === 'string' && text.length > 0)
    .join('\n');
  if (!redacted || body.length === 0) {
    await tx.search.remove('record', eventId);
    return;
  }
  const sid = record.redactionRequest?.sid ?? record.processJob?.request?.sid;
  const agentId = record.conversation?.agentId;
  const campaign = record.conversation?.campaignId;
  await tx.search.put({
    kind: 'record',
    id: eventId,
    sid: typeof sid === 'string' ? sid : null,
    agentId: typeof agentId === 'string' ? agentId : null,
    campaign: typeof campaign === 'string' ? campaign : null,
    createdAt,
    body,
  });
}
