// Conversation records: post-call event records stored whole, and live conversations built from real-call
// messages. Credentials are sealed before anything is stored and masked in everything answered.
import { indexRecord } from './recordSearch.js';
import { keepInsightHits } from './recordInsightHits.js';
import { checkMarks, markWindows } from '../redact/windows/marks.js';
import { maskRecordWindows, recordChannels } from '../redact/windows/recordMarks.js';
import crypto from 'node:crypto';
import { compileInsights } from '../conversation/insights/definitions.js';
import { channelOf, END_TYPES, liveRecord } from '../conversation/realTime.js';
import { CONTEXT_MESSAGES } from '../redact/conversationMessages.js';
import type { LiveMessage } from '../store/liveMessages.js';
import { RECORD_INSIGHTS } from '../workLimits.js';
import { RECEIVED } from '../conversation/recordStatus.js';
import { invalid, notFound } from '../errors.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { RealTimeMessage } from '../schema/resources/realTimeMessage.js';
import { check } from '../schema/validator.js';
import { maskCredentials, protectCredentials } from '../security/credentials.js';
import type { SecretBox } from '../security/secretBox.js';
import type { Store } from '../store/index.js';
import { postCallOffLoop, realTimeFieldsOffLoop, redactAcrossOffLoop, redactRecordOffLoop } from '../workers/index.js';
import type { PostCallTask } from '../workers/tasks.js';
import { stampRedaction } from '../redact/redactRecord.js';
import { recordRuleIssues, recordRules } from '../redact/recordRules.js';
import { retentionEnd } from '../jobs/retention.js';
import { type ProjectInForce, type RedactionPolicy, parseKinds, policyRecord, policyRules, resolvePolicy, storedPolicy, unionPolicies } from '../redact/policy.js';
import type { Scope } from '../store/apiKeys.js';
import type { ProjectConfigs } from './projectConfigs.js';

export { FAILED, PROCESSED, RECEIVED } from '../conversation/recordStatus.js';

export interface PostCallResult {
  created: boolean;
  record: EventRecord;
}

/** Who posts: an admin-scope key may lower the redaction a project requires (an event records it). */
export interface RecordCaller {
  scope?: Scope;
  keyId?: string;
}

/** A record's redaction, resolved: the policy, and the project its masks come from. */
interface RecordPolicy {
  policy: RedactionPolicy;
  project?: ProjectInForce;
}

export interface RealCallResult {
  conversationKey: string;
  sequence: number;
  receivedAt: string;
  realTimeMessage: RealTimeMessage;
  /** When this message ended the conversation: the post-call record it was processed into. */
  postCall?: { eventId: string; status: string };
}

/** Seconds without a message after which a live conversation has ended (project conversationIdleSeconds overrides). */
export const DEFAULT_IDLE_SECONDS = 300;
/** The shortest idle time a project may set (the idle sweep never ends a conversation sooner). */
const MIN_IDLE_SECONDS = 5;

export class Conversations {
  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
    private readonly projects?: ProjectConfigs,
    private readonly hashKey = '',
  ) {}

  /**
   * A record's redaction policy (redact/policy.ts): `redactionRequest.types` and `processJob.request.types`
   * (validated like `types`), `campaign.enableTextRedaction` as the scrub flag (true with no kinds: the
   * project's rules, else every kind; false cannot switch off what the project requires, except from an admin
   * key), and the project named by `redactionRequest.sid`, else `processJob.request.sid` (each must name a
   * published configuration). Real-time: the project's real_time rules.
   */
  private async recordPolicy(record: EventRecord, caller: RecordCaller, realTime: boolean): Promise<RecordPolicy> {
    const kinds = [
      ...parseKinds(record.redactionRequest?.types, 'redactionRequest.types'),
      ...parseKinds(record.processJob?.request?.types, 'processJob.request.types'),
    ];
    const named: [string | undefined, string][] = [
      [record.redactionRequest?.sid, 'redactionRequest.sid'],
      [record.processJob?.request?.sid, 'processJob.request.sid'],
    ];
    let project: ProjectInForce | undefined;
    for (const [sid, field] of named) {
      if (sid === undefined || !this.projects) continue;
      const found = await this.projects.forRedaction(sid, field);
      project ??= found;
    }
    const ask = { kinds, scrubtext: record.campaign?.enableTextRedaction, retentionDays: record.campaign?.retentionPolicy };
    const policy = resolvePolicy({ ask, project, mayLower: caller.scope === 'admin', realTime });
    // A record has no audio to edit here: its policy is text redaction.
    return { policy: { ...policy, audio: false }, project };
  }

  /**
   * Text redaction of a record, planned: its policy's kinds (masked as the project's rules say) with the record's
   * own active redactionTypes rules and contentGroups items (an explicit ask, like `types`), client-marked windows
   * masked first. Answers the record to redact (marks masked) and, when rules apply, what redactRecord runs with and
   * the `redaction` its result is stamped with (stampRedaction); without them the record is final as answered.
   * Only the redacted record is stored, with the policy it was redacted under (`redaction.policy`).
   */
  private redaction(record: EventRecord, resolved: RecordPolicy): { record: EventRecord; redact?: PostCallTask['redact'] } {
    const issues = recordRuleIssues(record);
    if (issues.length > 0) throw invalid('A redaction rule of the record cannot be used.', issues);
    const custom = recordRules(record);
    const rules = policyRules(resolved.policy, resolved.project?.config);
    // Client-marked windows: what was said inside them is masked by time and channel, whatever the words were.
    const asked = record.redactionRequest?.sensitiveWindows;
    checkMarks(asked, { field: 'redactionRequest.sensitiveWindows', channels: recordChannels(record) });
    const marks = markWindows(asked);
    let masked = 0;
    if (marks.length > 0) {
      record = structuredClone(record);
      masked = maskRecordWindows(record, marks, rules);
    }
    const windows = marks.length > 0 ? { windows: { bySource: { mark: marks.length }, list: marks.map(({ channel, start, end, kind, source }) => ({ channel, start, end, kind, source })) } } : {};
    const stamp = { policy: policyRecord(resolved.policy), ...windows };
    if (rules.length === 0 && custom.phrases.length === 0 && custom.kinds.length === 0) {
      // Marks that covered nothing of a record nothing else redacts leave it as sent.
      return { record: masked > 0 ? ({ ...record, redaction: stamp } as EventRecord) : record };
    }
    return { record, redact: { rules, stamp } };
  }

  /** A record redacted (see redaction()), on its own: a real-time message carried as a record. */
  private async redact(record: EventRecord, resolved: RecordPolicy): Promise<EventRecord> {
    const plan = this.redaction(record, resolved);
    if (!plan.redact) return plan.record;
    return stampRedaction(await redactRecordOffLoop(plan.record, plan.redact.rules, this.hashKey), plan.redact.stamp);
  }

  /**
   * Validate, redact, process and store an event record; a record with a known eventId replaces the earlier one.
   * Processing (conversation/enrich.ts) runs on the redacted record; a bad insight expression is refused (400)
   * before anything is stored; an unexpected failure of processing stores the redacted record as `failed`.
   */
  async postCall(input: EventRecord, caller: RecordCaller = {}): Promise<PostCallResult> {
    const eventId = input.eventId || crypto.randomUUID();
    const received: EventRecord = { ...input, eventId, status: RECEIVED };
    const resolved = await this.recordPolicy(received, caller, false);
    const own = compileInsights(received.insights, '/insights', RECORD_INSIGHTS);
    const fromProject = compileInsights(resolved.project?.config.insights, '/project/insights');
    const plan = this.redaction(received, resolved);
    // Redaction and processing are one task, off the event loop for a large record: the record crosses to a
    // worker and back once. A worker that dies in it fails the request, as it would in redaction alone.
    const { record, failure } = await postCallOffLoop(plan.record, plan.redact, {
      insights: [...own, ...fromProject],
      own,
      agentLocation: resolved.project?.config.agent_location,
      products: resolved.project?.config.products,
      callOutcomes: resolved.project?.config.callOutcomes,
      hashKey: this.hashKey,
    });
    // Retention: the record is deleted at the earliest of its policy's end (campaign and project retentionPolicy) and
    // a deleteDate the client set; the stored record says when (conversation.deleteDate).
    const deleteAfter = recordDeleteAfter(resolved.policy.retentionDays, record.conversation?.deleteDate, new Date());
    if (deleteAfter) record.conversation = { ...record.conversation, deleteDate: deleteAfter };
    const status = record.status!;
    const conversationId = record.conversationId ?? record.conversation?.id ?? null;
    const jobId = record.jobId ?? record.job?.jobId ?? record.processJob?.jobId ?? null;
    const { sealed, masked } = protectCredentials(record, this.box);
    // The record and its events land together or not at all.
    const created = await this.store.transaction(async (tx) => {
      const saved = await tx.conversations.save({ eventId, conversationId, jobId, status, record: sealed, deleteAfter });
      // Searchable only as redacted (issue 35): a record its policy had no rules for is stored as sent, not indexed.
      const storedAt = new Date().toISOString();
      await indexRecord(tx, eventId, record, plan.redact !== undefined, storedAt);
      // Categories over time (issue 35): its insight results, ids and counts only.
      await keepInsightHits(tx, eventId, record, storedAt);
      const ids = { ...(conversationId && { conversationId }), ...(jobId && { jobId }) };
      // Its events in one statement.
      await tx.events.recordAll([
        { type: 'conversation', subType: RECEIVED, subject: eventId, status: RECEIVED, ...ids, details: { eventId, replaced: !saved.created } },
        {
          type: 'conversation',
          subType: status,
          subject: eventId,
          status,
          ...ids,
          ...(failure && { message: failure }),
          details: { eventId, insightsCreated: record.insightsCreated ?? 0, segmentsCreated: record.segmentsCreated ?? 0 },
        },
        ...(resolved.policy.lowered ? [loweredEvent(eventId, conversationId, resolved.policy, caller)] : []),
      ]);
      return saved.created;
    });
    return { created, record: masked };
  }

  async get(eventId: string): Promise<EventRecord> {
    const found = await this.store.conversations.get(eventId);
    if (!found) throw notFound(`no conversation record with eventId "${eventId}"`);
    return maskCredentials(found.record as EventRecord, this.box);
  }

  /**
   * Take a realTimeMessage, or an event record carrying one, validate it and append it to its live
   * conversation (engagementId, else ucid).
   */
  async realCall(body: unknown, caller: RecordCaller = {}): Promise<RealCallResult> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw invalid('The body must be a realTimeMessage object or an event record carrying one.', [
        { pointer: '/', path: '(root)', message: 'must be object' },
      ]);
    }
    const carried = Object.hasOwn(body, 'realTimeMessage');
    const issues = check(carried ? 'EventRecord' : 'RealTimeMessage', body);
    if (issues.length > 0) throw invalid('The real-time message is invalid.', issues);
    const message = (carried ? (body as EventRecord).realTimeMessage : body) as RealTimeMessage | undefined;
    const at = carried ? '/realTimeMessage' : '';
    if (!message) throw invalid('realTimeMessage is empty.', [{ pointer: at, path: 'realTimeMessage', message: 'must be object' }]);
    const conversationKey = message.engagementId || message.ucid;
    if (!conversationKey) {
      throw invalid('A real-time message needs engagementId or ucid to place it in its live conversation.', [
        { pointer: `${at}/engagementId`, path: `${carried ? 'realTimeMessage.' : ''}engagementId`, message: 'engagementId or ucid is required' },
      ]);
    }
    const record = carried ? (body as EventRecord) : {};
    const asked = await this.livePolicy(record, message, caller);
    // One message of a conversation at a time: it is redacted with the conversation's kept messages, and may
    // rewrite them.
    return this.serial(conversationKey, async () => {
      const kept = await this.store.liveMessages.list(conversationKey);
      // The conversation's policy: every kind any of its messages was redacted for, with this one's (more, never less).
      const policy = conversationPolicy(kept, asked.policy);
      const resolved = { ...asked, policy };
      const redacted = (await this.redact({ realTimeMessage: message, redactionTypes: record.redactionTypes, contentGroups: record.contentGroups }, resolved))
        .realTimeMessage as RealTimeMessage;
      const held = await this.redactAcross(kept, redacted, resolved);
      // Real-time insights (issue 18): the project's and the carrying record's, on each final message.
      const insights = [...compileInsights(record.insights, '/insights', RECORD_INSIGHTS), ...compileInsights(resolved.project?.config.insights, '/project/insights')];
      if (insights.some((c) => c.insight.realTime) && redacted.isFinal !== false) {
        const earlier = (await this.store.liveMessages.list(conversationKey)).map((m) => m.message as RealTimeMessage);
        // As realTimeFields: an evaluation that fails (here also: past its time limit) raises nothing; the message,
        // already redacted, still goes.
        Object.assign(redacted, await realTimeFieldsOffLoop(earlier, redacted, insights).catch(() => ({})));
      }
      const { sealed, masked } = protectCredentials(redacted, this.box);
      const appended = await this.store.liveMessages.append(conversationKey, sealed, { policy: policyRecord(policy), ...(held && { held }) });
      // The event says what the admin key asked (the conversation may still hold the kinds from earlier messages).
      if (asked.policy.lowered) await this.store.events.record(loweredEvent(conversationKey, record.conversationId ?? null, asked.policy, caller));
      const ended = typeof message.type === 'string' && END_TYPES.has(message.type.trim().toLowerCase());
      const postCall = ended ? await this.endLive(conversationKey) : undefined;
      return { conversationKey, ...appended, realTimeMessage: masked, ...(postCall && { postCall }) };
    });
  }

  /**
   * A message redacted across its conversation (redact/conversationMessages.ts): with the speaker's kept
   * messages, rewriting those a span reaches back into, and digit groups at its edges masked. Answers the kind its
   * final digit group was masked as, when it ends in one (the speaker's next message continues it).
   */
  private async redactAcross(kept: readonly LiveMessage[], message: RealTimeMessage, resolved: RecordPolicy): Promise<string | undefined> {
    const rules = policyRules(resolved.policy, resolved.project?.config);
    if (rules.length === 0 || typeof message.text !== 'string') return undefined;
    const channel = channelOf(message.speaker);
    const mine = kept.filter((m) => {
      const k = m.message as RealTimeMessage;
      return k.isFinal !== false && typeof k.text === 'string' && channelOf(k.speaker) === channel;
    });
    const last = mine[mine.length - 1]?.redaction?.held;
    const continues = typeof last === 'string' ? last : undefined;
    const earlier = mine.slice(-CONTEXT_MESSAGES);
    const partial = message.isFinal === false;
    const step = await redactAcrossOffLoop(earlier.map((m) => (m.message as RealTimeMessage).text!), message.text, rules, this.hashKey, continues, partial);
    message.text = step.text;
    for (const [i, text] of step.earlier.entries()) {
      if (text !== undefined) await this.store.liveMessages.rewrite(earlier[i].id, { ...earlier[i].message, text });
    }
    // A partial's end is not where the speaker stopped: the next final alone says whether it continues.
    return partial ? undefined : step.held;
  }

  private readonly queues = new Map<string, Promise<unknown>>();

  /** `work` run after the earlier work queued under `key` (in this process) has settled. */
  private serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(key) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }

  /**
   * End a live conversation: its final messages become a post-call record (eventId live:KEY, utterances 0 agent,
   * 1 caller, redacted under the project its messages name) processed like any other.
   */
  async endLive(conversationKey: string): Promise<{ eventId: string; status: string }> {
    const messages = await this.store.liveMessages.list(conversationKey);
    if (messages.length === 0) throw notFound(`no live conversation "${conversationKey}"`);
    const plain = messages.map((m) => m.message as RealTimeMessage);
    const campaign = plain.find((m) => m.campaign)?.campaign;
    const project = campaign && this.projects ? await this.projects.current(campaign) : undefined;
    // The conversation's policy goes with its record: the joined text is redacted for the same kinds, and says so.
    const kinds = conversationPolicy(messages, undefined)?.kinds ?? [];
    const record = liveRecord(conversationKey, plain, project ? campaign : undefined, messages[messages.length - 1].receivedAt, kinds);
    const { record: processed } = await this.postCall(record, { scope: 'submit' });
    return { eventId: processed.eventId!, status: processed.status! };
  }

  /**
   * End the live conversations idle for their project's conversationIdleSeconds (else `defaultIdleSeconds`) that
   * were not processed since their last message. Answers the keys ended.
   */
  async endIdle(defaultIdleSeconds = DEFAULT_IDLE_SECONDS, now = Date.now()): Promise<string[]> {
    const candidates = await this.store.liveMessages.idleSince(new Date(now - MIN_IDLE_SECONDS * 1000).toISOString());
    const ended: string[] = [];
    for (const { conversationKey, lastReceivedAt } of candidates) {
      const done = await this.store.conversations.get(`live:${conversationKey}`);
      if (done && (done.record as EventRecord).completedAt === lastReceivedAt) continue;
      const messages = await this.store.liveMessages.list(conversationKey);
      const campaign = messages.map((m) => (m.message as RealTimeMessage).campaign).find(Boolean);
      const project = campaign && this.projects ? await this.projects.current(campaign) : undefined;
      const idle = Math.max(MIN_IDLE_SECONDS, project?.config.conversationIdleSeconds ?? defaultIdleSeconds);
      if (now - Date.parse(lastReceivedAt) < idle * 1000) continue;
      try {
        await this.endLive(conversationKey);
        ended.push(conversationKey);
      } catch {
        // A conversation that cannot be processed (its messages refused as a record) is left for a later sweep.
      }
    }
    return ended;
  }

  private sweep?: NodeJS.Timeout;

  /** Sweep for idle live conversations every `intervalMs` (serve only). */
  startIdleSweep(defaultIdleSeconds = DEFAULT_IDLE_SECONDS, intervalMs = 5000): void {
    if (this.sweep) return;
    let running = false;
    this.sweep = setInterval(() => {
      if (running) return;
      running = true;
      this.endIdle(defaultIdleSeconds)
        .catch(() => undefined)
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    this.sweep.unref();
  }

  stopIdleSweep(): void {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
  }

  /**
   * A live message's policy: the carrying record's (redactionRequest.types, campaign.enableTextRedaction,
   * its project's real_time rules); a bare message's project is the one its `campaign` names, when published.
   */
  private async livePolicy(record: EventRecord, message: RealTimeMessage, caller: RecordCaller): Promise<RecordPolicy> {
    const named = record.redactionRequest?.sid ?? record.processJob?.request?.sid;
    if (named === undefined && message.campaign && this.projects) {
      const project = await this.projects.current(message.campaign);
      if (project) return this.recordPolicy({ ...record, redactionRequest: { ...record.redactionRequest, sid: message.campaign } }, caller, true);
    }
    return this.recordPolicy(record, caller, true);
  }

  async live(conversationKey: string) {
    const messages = await this.store.liveMessages.list(conversationKey);
    if (messages.length === 0) throw notFound(`no live conversation "${conversationKey}"`);
    return {
      conversationKey,
      messages: messages.map((m) => ({ sequence: m.sequence, receivedAt: m.receivedAt, message: maskCredentials(m.message, this.box) })),
    };
  }
}

/** The event that records an admin key lowering what a project requires of a record. */
function loweredEvent(subject: string, conversationId: string | null, policy: RedactionPolicy, caller: RecordCaller) {
  return {
    type: 'conversation' as const,
    subType: 'redaction_lowered',
    subject,
    status: RECEIVED,
    ...(conversationId && { conversationId }),
    message: `an admin-scope key lowered the redaction project ${policy.sid} requires`,
    details: { sid: policy.sid, version: policy.version, kinds: policy.kinds, ...(caller.keyId && { keyId: caller.keyId }) },
  };
}

/** The union of the policies a conversation's messages were redacted under, with `current` (what this message asks). */
function conversationPolicy<P extends RedactionPolicy | undefined>(kept: readonly LiveMessage[], current: P): P extends RedactionPolicy ? RedactionPolicy : RedactionPolicy | undefined {
  let policy: RedactionPolicy | undefined = current;
  for (const m of kept) {
    const stored = m.redaction ? storedPolicy(m.redaction.policy) : undefined;
    if (stored) policy = policy ? unionPolicies(stored, policy) : stored;
  }
  return policy as P extends RedactionPolicy ? RedactionPolicy : RedactionPolicy | undefined;
}

/** When a post-call record is deleted: the earlier of `days` after `now` and the client's own deleteDate; null: kept. */
export function recordDeleteAfter(days: number | undefined, clientDate: unknown, now: Date): string | null {
  const ends = [retentionEnd(days, now), typeof clientDate === 'string' && Number.isFinite(Date.parse(clientDate)) ? new Date(Date.parse(clientDate)).toISOString() : null];
  const due = ends.filter((d): d is string => d !== null).sort();
  return due[0] ?? null;
}
