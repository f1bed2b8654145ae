// Conversation records: post-call event records stored whole, and live conversations built from real-call
// messages. Credentials are sealed before anything is stored and masked in everything answered.
import crypto from 'node:crypto';
import { invalid, notFound } from '../errors.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { RealTimeMessage } from '../schema/resources/realTimeMessage.js';
import { check } from '../schema/validator.js';
import { maskCredentials, protectCredentials } from '../security/credentials.js';
import type { SecretBox } from '../security/secretBox.js';
import type { Store } from '../store/index.js';
import { redactRecordOffLoop, redactTextOffLoop } from '../redact/offload/index.js';
import { type RecordInput, recordRuleIssues, recordRules, type RecordRules } from '../redact/recordRules.js';
import { resolveRules } from '../redact/rules.js';
import type { ProjectConfigs } from './projectConfigs.js';

/** A stored record's state until the processing pipeline (a later stage) runs on it. */
export const RECEIVED = 'received';

export interface PostCallResult {
  created: boolean;
  record: EventRecord;
}

export interface RealCallResult {
  conversationKey: string;
  sequence: number;
  receivedAt: string;
  realTimeMessage: RealTimeMessage;
}

export class Conversations {
  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
    private readonly projects?: ProjectConfigs,
    private readonly hashKey = '',
  ) {}

  /**
   * Text redaction of a record, when asked for: the redactionRequest's `types`, the rules of the project it
   * names (`sid`, or the processJob request's) when that project scrubs text or the campaign enables text
   * redaction, and the record's own active redactionTypes rules and contentGroups items (an explicit ask, like
   * `types`). Only the redacted record is stored.
   */
  private async redact(record: EventRecord): Promise<EventRecord> {
    const sid = record.redactionRequest?.sid ?? record.processJob?.request?.sid;
    const project = sid && this.projects ? (await this.projects.current(sid))?.config : undefined;
    const scrub = record.campaign?.enableTextRedaction ?? project?.scrubtext ?? false;
    const types = record.redactionRequest?.types ?? record.processJob?.request?.types;
    const issues = recordRuleIssues(record);
    if (issues.length > 0) throw invalid('A redaction rule of the record cannot be used.', issues);
    const custom = recordRules(record);
    const rules = scrub || types?.length ? resolveRules({ project: scrub ? project : undefined, types }) : [];
    if (rules.length === 0 && custom.phrases.length === 0 && custom.kinds.length === 0) return record;
    const { record: redacted, entities } = await redactRecordOffLoop(record, rules, this.hashKey);
    return { ...redacted, entities: [...(redacted.entities ?? []), ...entities], maskValues: true };
  }

  /** Store a validated event record; a record with a known eventId replaces the earlier one. */
  async postCall(input: EventRecord): Promise<PostCallResult> {
    const eventId = input.eventId || crypto.randomUUID();
    const record: EventRecord = await this.redact({ ...input, eventId, status: RECEIVED });
    const conversationId = record.conversationId ?? record.conversation?.id ?? null;
    const jobId = record.jobId ?? record.job?.jobId ?? record.processJob?.jobId ?? null;
    const { sealed, masked } = protectCredentials(record, this.box);
    // The record and its event land together or not at all.
    const created = await this.store.transaction(async (tx) => {
      const saved = await tx.conversations.save({ eventId, conversationId, jobId, status: RECEIVED, record: sealed });
      await tx.events.record({
        type: 'conversation',
        subType: RECEIVED,
        subject: eventId,
        status: RECEIVED,
        ...(conversationId && { conversationId }),
        ...(jobId && { jobId }),
        details: { eventId, replaced: !saved.created },
      });
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
  async realCall(body: unknown): Promise<RealCallResult> {
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
    const record = carried ? (body as EventRecord) : undefined;
    const ruleIssues = record ? recordRuleIssues(record) : [];
    if (ruleIssues.length > 0) throw invalid('A redaction rule of the record cannot be used.', ruleIssues);
    const redacted = await this.redactLive(message, record?.redactionRequest?.sid, record && recordRules(record), record);
    const { sealed, masked } = protectCredentials(redacted, this.box);
    const appended = await this.store.liveMessages.append(conversationKey, sealed);
    return { conversationKey, ...appended, realTimeMessage: masked };
  }

  /**
   * A live message's text, redacted with the project's rules marked `real_time` (the project named by the
   * record's redactionRequest.sid, else by the message's `campaign`) and with the carrying record's own
   * redactionTypes/contentGroups rules, before it is stored or answered.
   */
  private async redactLive(message: RealTimeMessage, sid?: string, custom?: RecordRules, ruleSource?: RecordInput): Promise<RealTimeMessage> {
    if (typeof message.text !== 'string') return message;
    const projectId = sid ?? message.campaign;
    const project = projectId && this.projects ? (await this.projects.current(projectId))?.config : undefined;
    const rules = project ? resolveRules({ project, realTime: true }) : [];
    if (rules.length === 0 && !custom?.phrases.length && !custom?.kinds.length) return message;
    const { text } = await redactTextOffLoop(message.text, rules, this.hashKey, ruleSource);
    return { ...message, text };
  }

  async live(conversationKey: string) {
    const messages = await this.store.liveMessages.list(conversationKey);
    if (messages.length === 0) throw notFound(`no live conversation "${conversationKey}"`);
    return {
      conversationKey,
      messages: messages.map((m) => ({ ...m, message: maskCredentials(m.message, this.box) })),
    };
  }
}
