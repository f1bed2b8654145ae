// Live conversations (issue 18): real-call messages as a conversation, real-time insights on each final
// message, and the record a finished live conversation is processed as. Pure.
//
// Consecutive final messages of one speaker are one line, so a phrase said across two messages is found; an
// insight is raised on the message that completes it (its match ends in that message) and not again after.
// Speakers: "agent" (or 0, "rep") is the agent, "caller"/"customer" (or 1) the caller; any other value is a
// speaker of a mono call. Times are the messages' messageStartTime/messageEndTime, else estimated (0.4 s a word).
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { RealTimeMessage } from '../schema/resources/realTimeMessage.js';
import type { CompiledInsight } from './insights/definitions.js';
import { distinctHits, evaluate, MatchIndex } from './insights/evaluate.js';
import { conversationOfLines, type RawUtterance } from './normalize.js';
import type { Conversation, ConversationWord } from './types.js';

/** A message `type` that ends its live conversation. */
export const END_TYPES = new Set(['end', 'ended', 'hangup', 'disconnect', 'disconnected', 'call_end', 'callend', 'complete', 'completed']);

const WORD_SECONDS = 0.4;

/** The channel of a message's speaker: 0 the agent, 1 the caller (any other speaker: 0). */
export function channelOf(speaker: unknown): number {
  const s = String(speaker ?? '').trim().toLowerCase();
  if (s === 'agent' || s === '0' || s === 'rep' || s === 'representative' || s === 's1') return 0;
  if (s === 'caller' || s === 'customer' || s === '1' || s === 's2' || s === 'client') return 1;
  return 0;
}

interface Built {
  conversation: Conversation;
  /** Start time of the last message's first word (its words are those at or after it on the last line of its speaker). */
  lastStart: number;
  lastChannel: number;
}

/** The final messages as a conversation; `latest` (final) is the last one. */
export function liveConversation(messages: readonly RealTimeMessage[]): Built {
  const lines: RawUtterance[] = [];
  let clock = 0;
  let lastStart = 0;
  let lastChannel = 0;
  let previous: RawUtterance | undefined;
  for (const m of messages) {
    if (m.isFinal === false || typeof m.text !== 'string' || !m.text.trim()) continue;
    const tokens = m.text.trim().split(/\s+/);
    const start = typeof m.messageStartTime === 'number' ? m.messageStartTime : clock;
    const end = Math.max(start, typeof m.messageEndTime === 'number' ? m.messageEndTime : start + tokens.length * WORD_SECONDS);
    const step = (end - start) / tokens.length;
    const words: ConversationWord[] = tokens.map((text, i) => ({ text, start: start + i * step, end: start + (i + 1) * step }));
    const channel = channelOf(m.speaker);
    clock = end;
    lastStart = start;
    lastChannel = channel;
    if (previous && previous.channel === channel && previous === lines[lines.length - 1]) {
      previous.words.push(...words);
      previous.end = end;
      continue;
    }
    previous = { channel, start, end, words };
    lines.push(previous);
  }
  return { conversation: conversationOfLines(lines, { agentLocation: 'left' }), lastStart, lastChannel };
}

export interface RealTimeOutcome {
  /** alertMessage (else name, else id) of each alerting insight raised by this message, joined by "; ". */
  alert?: string;
  /** prompt of each insight raised by this message, joined by "; ". */
  prompt?: string;
  /** Ids (else names) of the insights raised by this message, comma separated. */
  insights?: string;
  raised: CompiledInsight[];
}

/**
 * The realTime insights (those with `realTime: true`) that `message` completes, given the conversation's earlier
 * messages. This is the function a streaming transport calls on each final result.
 */
export function evaluateRealTimeInsights(earlier: readonly RealTimeMessage[], message: RealTimeMessage, insights: readonly CompiledInsight[]): RealTimeOutcome {
  const live = insights.filter((c) => c.insight.realTime === true);
  if (message.isFinal === false || live.length === 0 || typeof message.text !== 'string' || !message.text.trim()) return { raised: [] };
  const { conversation, lastStart, lastChannel } = liveConversation([...earlier, message]);
  const index = new MatchIndex(conversation);
  const lastLine = [...conversation.utterances].reverse().find((u) => u.channel === lastChannel)?.line;
  const raised = live.filter((c) => {
    const ins = c.insight;
    const scope = typeof ins.channel === 'number' && ins.channel >= 0 ? { speaker: (u: { role?: string; speaker: number }) => (u.role ? (ins.channel === 0 ? u.role === 'agent' : u.role === 'caller') : u.speaker === ins.channel) } : {};
    const outcome = evaluate(c.expression, index, scope);
    if (!outcome.matched) return false;
    // NOT-only expressions match without words: raised once, on the first final message.
    if (outcome.hits.length === 0) return earlier.every((m) => m.isFinal === false);
    return distinctHits(outcome.hits).some((h) => h.line === lastLine && h.end > lastStart + 1e-9);
  });
  if (raised.length === 0) return { raised };
  const join = (values: (string | undefined)[]) => values.filter((v): v is string => !!v).join('; ') || undefined;
  const alert = join(raised.filter((c) => c.insight.alert).map((c) => c.insight.alertMessage ?? c.insight.name ?? c.insight.id));
  const prompt = join(raised.map((c) => c.insight.prompt));
  return {
    ...(alert && { alert }),
    ...(prompt && { prompt }),
    insights: raised.map((c) => c.insight.id ?? c.insight.name ?? c.origin).join(','),
    raised,
  };
}

/**
 * What a final message carries from the real-time insights it raises: `alert`, `prompt`, `insights` (absent when
 * none). Every transport (POST /cache/real-call, live streams) takes them from here. An evaluation that throws
 * raises nothing: the message, already redacted, still goes.
 */
export function realTimeFields(earlier: readonly RealTimeMessage[], message: RealTimeMessage, insights: readonly CompiledInsight[]): { alert?: string; prompt?: string; insights?: string } {
  let outcome: RealTimeOutcome;
  try {
    outcome = evaluateRealTimeInsights(earlier, message, insights);
  } catch {
    return {};
  }
  return { ...(outcome.alert && { alert: outcome.alert }), ...(outcome.prompt && { prompt: outcome.prompt }), ...(outcome.insights && { insights: outcome.insights }) };
}

/**
 * The post-call record of a finished live conversation: its lines as the record's utterances (0 agent, 1 caller).
 * `kinds`: what its messages were redacted for (the conversation's policy), asked again of the record, so the
 * joined text is redacted as one conversation and the record says under what (`redaction`).
 */
export function liveRecord(conversationKey: string, messages: readonly RealTimeMessage[], campaign: string | undefined, lastReceivedAt: string, kinds: readonly string[] = []): EventRecord {
  const { conversation } = liveConversation(messages);
  const first = messages.find((m) => m.direction || m.campaign);
  return {
    eventId: `live:${conversationKey}`,
    conversationId: conversationKey,
    type: 'realTime',
    // When the last message arrived: an idle sweep does not process the same conversation twice.
    completedAt: lastReceivedAt,
    ...((campaign || kinds.length > 0) && { redactionRequest: { ...(campaign && { sid: campaign }), ...(kinds.length > 0 && { types: [...kinds] }) } }),
    campaign: { agentLocation: 'left', ...(first?.direction && { direction: first.direction }) },
    utterances: conversation.utterances.map((u) => ({ row: u.line, speaker: u.channel, channel: u.channel, start: u.start, end: u.end, text: u.text })),
  };
}
