// Post-call processing of a redacted record (issue 18): its conversation (normalize.ts), call figures
// (analytics.ts), insights (insights/), key phrases, entities and profanity, written into the record's
// `utterances`, `conversation`, `analytics`, `insightLines`, `keyPhrases`, `entities`, `insightsCreated` and
// `segmentsCreated`. Runs on the record AFTER redaction, so everything it writes is built from redacted text;
// the further masking insights and profanity ask for goes through the one redaction core (`redact`), and the
// outputs are built from the record that comes back. Deterministic: the same record gives the same result.
import type { Entity, InsightLine, KeyPhrase, Utterance } from '../schema/resources/conversationItems.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { RecordRedaction } from '../redact/redactRecord.js';
import type { RuleInput } from '../redact/recordRules.js';
import type { RoleOptions } from '../transcript/roles.js';
import { numtrans } from '../transcript/numtrans.js';
import { callFigures, type CallFigures } from './analytics.js';
import { organizations, placeEntities } from './entities.js';
import { products, type ProductEntry } from './products.js';
import type { CompiledInsight } from './insights/definitions.js';
import { MatchIndex } from './insights/evaluate.js';
import { runInsights, type InsightResult } from './insights/run.js';
import { detectOutcomes, type Detection } from './callOutcomes/detect.js';
import { type CallOutcomesConfig, compileLexicon } from './callOutcomes/lexicon.js';
import { callSummary } from './callOutcomes/summary.js';
import { keyPhrases } from './keyPhrases.js';
import { conversationOfRecord } from './normalize.js';
import { profaneWords } from './profanity.js';
import { POLARITY_NAME } from './sentiment.js';
import type { Switches } from './switches.js';
import type { Conversation } from './types.js';

export interface EnrichOptions {
  insights: readonly CompiledInsight[];
  roles: RoleOptions;
  switches: Switches;
  direction?: string;
  /** The project's product catalogue: mentions are listed among the entities. */
  products?: readonly ProductEntry[];
  /** The project's issue / outcome / action-item phrases (callOutcomes/lexicon.ts), with the built-in ones. */
  callOutcomes?: CallOutcomesConfig;
  /** The redaction core over the record with extra record rules (insight and profanity masks). */
  redact: (record: EventRecord, rules: RuleInput[]) => Promise<RecordRedaction>;
}

export interface Enriched {
  record: EventRecord;
  conversation?: Conversation;
  figures?: CallFigures;
  insights: InsightResult[];
}

/** Insight redactions as record rules for the core: the phrase masked wherever it is said (redact more, never less). */
function insightRules(results: readonly InsightResult[]): RuleInput[] {
  const rules: RuleInput[] = [];
  for (const r of results) {
    for (const x of r.redactions) {
      if (!x.text) continue;
      rules.push({
        value: x.phrase,
        type: 'Insight',
        maskType: x.maskCharacter ? 'MaskCharacter' : 'Placeholder',
        setting: x.maskCharacter ? x.maskCharacter : '[INSIGHT]',
        redactLine: x.redactLine,
        redactBefore: x.before,
        redactAfter: x.after,
      });
    }
  }
  return rules;
}

/** Resource 11/13 conversationId is a uuid: a record's other ids are not copied there. */
const uuidOf = (id: string | undefined) => id !== undefined && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

const round3 = (n: number | null | undefined) => (n === null || n === undefined ? null : Math.round(n * 1000) / 1000);

/** The words of line `line` between two times, as `conversation` has them (after any further masking). */
function textAt(conversation: Conversation, line: number, start: number, end: number): string {
  const u = conversation.utterances[line];
  if (!u) return '';
  return u.words.filter((w) => w.end > start - 1e-6 && w.start < end + 1e-6).map((w) => w.text).join(' ');
}

export async function enrichRecord(input: EventRecord, options: EnrichOptions): Promise<Enriched> {
  const { switches } = options;
  let record = input;
  const first = conversationOfRecord(record, options.roles);
  if (!first) {
    return { record: { ...record, insightsCreated: 0, segmentsCreated: 0 }, insights: [] };
  }
  // No insight defined: nothing to match, and no index to build (a pass over every word of the call).
  const insights = switches.insights && options.insights.length > 0 ? runInsights(options.insights, first, { direction: options.direction }, new MatchIndex(first)) : [];

  // Further masking (insight redaction flags, profanity) by the core, over the whole record.
  const rules = insightRules(insights);
  if (switches.profanity) {
    for (const word of profaneWords(first)) rules.push({ value: word, type: 'Profanity', maskType: 'MaskCharacter', setting: '*' });
  }
  let coreEntities: Entity[] = [];
  if (rules.length > 0) {
    const redacted = await options.redact(record, rules);
    record = redacted.record;
    coreEntities = redacted.entities;
  }
  const conversation = rules.length > 0 ? (conversationOfRecord(record, options.roles) ?? first) : first;
  const figures = callFigures(conversation, { sentiment: switches.sentiment });
  const sameLines = conversation.utterances.length === first.utterances.length;
  const lineText = (line: number, start: number, end: number) => (sameLines ? textAt(conversation, line, start, end) : '[INSIGHT]');

  // Utterances (resource 11): the record's own, or built from the conversation; sentiment per line.
  const sentimentOf = (line: number) => figures.utteranceSentiment?.[line];
  const utterances: Utterance[] =
    conversation.source === 'utterances'
      ? (record.utterances ?? []).map((u, i) => withSentiment({ ...u, row: u.row ?? i }, sentimentOf(i)))
      : conversation.utterances.map((u) =>
          withSentiment(
            {
              row: u.line,
              speaker: u.speaker,
              channel: u.channel,
              start: u.start,
              end: u.end,
              text: u.text,
              ...(switches.numerals && { formattedText: numtrans(u.words.map((w) => w.text)).text }),
              ...(u.words.some((w) => w.confidence !== undefined) && {
                confidence: round3(u.words.reduce((s, w) => s + (w.confidence ?? 0), 0) / u.words.length)!,
              }),
              ...(uuidOf(record.conversationId) && { conversationId: record.conversationId }),
            },
            sentimentOf(u.line),
          ),
        );

  const insightLines: InsightLine[] = [];
  for (const r of insights) {
    const id = r.compiled.insight.id ?? r.compiled.insight.name ?? r.compiled.origin;
    const isRedaction = r.redactions.length > 0;
    for (const l of r.lines) {
      insightLines.push({
        insightId: id,
        timestamp: l.hit.start,
        speaker: l.hit.speaker,
        line: l.hit.line,
        value: sameLines ? conversation.utterances[l.hit.line]?.text ?? '' : '[INSIGHT]',
        hasResponse: l.response !== undefined,
        ...(l.response && { responseLine: l.response.line, responseValue: sameLines ? conversation.utterances[l.response.line]?.text ?? '' : '[INSIGHT]' }),
        isRedaction,
        ...(record.conversationId && { conversationId: record.conversationId }),
      });
    }
  }

  const kp: KeyPhrase[] = switches.keywords
    ? keyPhrases(conversation).map((p) => ({
        phrase: p.phrase,
        score: p.score,
        speaker: p.speaker,
        start: p.start,
        end: p.end,
        sentiment: p.sentiment,
        isTopic: p.isTopic,
        isIntent: p.isIntent,
        engine: 'compromise',
        line: p.line,
        ...(uuidOf(record.conversationId) && { conversationId: record.conversationId }),
      }))
    : [];

  let entities = record.entities ?? [];
  if (switches.entities) {
    const core = [...entities, ...coreEntities];
    // The core places what it finds in the record's own utterances (line, offset, length) and counts a value once,
    // where it starts: those keep their place, and entities from the other transcript shapes get none there (the
    // same value would be counted twice). Otherwise the conversation was built here: entities are found in it.
    const placed = conversation.source === 'utterances' ? core : placeEntities(core.map(({ line: _l, offset: _o, length: _n, ...e }) => e), conversation);
    entities = [...placed, ...(switches.organizations ? organizations(conversation) : []), ...products(conversation, options.products ?? [])];
  } else {
    entities = [...entities, ...coreEntities];
  }

  // Issues, outcomes, action items and the summary: from the conversation after every mask, so from redacted text.
  const detections = detectOutcomes(conversation, compileLexicon(options.callOutcomes, '/project/callOutcomes'));
  const detectionsOf = (kind: Detection['kind']) =>
    detections.filter((d) => d.kind === kind).map((d) => ({ line: d.line, speaker: d.speaker, ...(d.role && { role: d.role }), start: d.start, end: d.end, phrase: d.phrase, text: d.text }));
  const summary = callSummary(detections);

  const agent = figures.speakers.find((s) => s.role === 'agent');
  const caller = figures.speakers.find((s) => s.role === 'caller');
  const side = <T>(s: typeof agent, get: (s: NonNullable<typeof agent>) => T): T | null => (s ? get(s) : null);
  const analyticsInsights = insights
    .filter((r) => r.applies)
    .map((r) => {
      const ins = r.compiled.insight;
      const first = r.lines[0];
      return {
        id: ins.id ?? r.compiled.origin,
        ...(ins.name && { name: ins.name }),
        type: r.violation ? 'compliance_violation' : r.matched ? 'match' : 'no_match',
        value: r.lines.length,
        ...(first && { speaker: String(first.hit.speaker), timestamp: first.hit.start, phrase: lineText(first.hit.line, first.hit.start, first.hit.end) }),
        ...(first?.response && { response_timestamp: first.response.start, response_phrase: lineText(first.response.line, first.response.start, first.response.end) }),
        ...(r.alert && { alert: true, ...(ins.alertMessage && { alertMessage: ins.alertMessage }) }),
        ...(ins.complianceViolation && { complianceViolation: r.violation }),
      };
    });

  const analytics = {
    ...record.analytics,
    total_duration: figures.duration,
    silence: figures.silence,
    overtalk: figures.overtalk.total,
    overtalk_count: figures.overtalk.count,
    overtalk_average: figures.overtalk.average,
    speaker_changes: figures.speakerChanges,
    talk_time_agent: side(agent, (s) => s.talkTime),
    talk_time_caller: side(caller, (s) => s.talkTime),
    utterances_agent: side(agent, (s) => s.utterances),
    utterances_caller: side(caller, (s) => s.utterances),
    words_per_minute_agent: side(agent, (s) => s.wordsPerMinute),
    words_per_minute_caller: side(caller, (s) => s.wordsPerMinute),
    interruptions_agent: side(agent, (s) => s.interruptions),
    interruptions_caller: side(caller, (s) => s.interruptions),
    interruptions: figures.interruptions.map((i) => ({ speaker: i.speaker, interrupted: i.interrupted, count: i.count, time: i.time, at: i.at })),
    non_talk: figures.nonTalk,
    ...(switches.sentiment && {
      sentiment_confidence_agent: side(agent, (s) => round3(s.sentiment!.confidence)),
      sentiment_confidence_caller: side(caller, (s) => round3(s.sentiment!.confidence)),
      ...(agent?.sentiment && {
        sentiment_agent: POLARITY_NAME[agent.sentiment.polarity],
        sentiment_start_agent: POLARITY_NAME[agent.sentiment.start],
        sentiment_end_agent: POLARITY_NAME[agent.sentiment.end],
      }),
      ...(caller?.sentiment && {
        sentiment_caller: POLARITY_NAME[caller.sentiment.polarity],
        sentiment_start_caller: POLARITY_NAME[caller.sentiment.start],
        sentiment_end_caller: POLARITY_NAME[caller.sentiment.end],
      }),
      positive_phrases: figures.positivePhrases!.map((p) => ({ line: p.line, speaker: p.speaker, phrase: p.phrase })),
      negative_phrases: figures.negativePhrases!.map((p) => ({ line: p.line, speaker: p.speaker, phrase: p.phrase })),
    }),
    speakers: figures.speakers.map((s) => ({
      speaker: s.speaker,
      ...(s.role && { role: s.role }),
      talk_time: s.talkTime,
      utterances: s.utterances,
      words: s.words,
      words_per_minute: s.wordsPerMinute,
      interruptions: s.interruptions,
      interruption_time: s.interruptionTime,
      interrupted: s.interrupted,
      ...(s.sentiment && {
        sentiment: POLARITY_NAME[s.sentiment.polarity],
        sentiment_confidence: round3(s.sentiment.confidence),
        sentiment_quarters: s.sentiment.quarters.map((q) => (q ? { sentiment: POLARITY_NAME[q.polarity], score: q.score } : null)),
      }),
    })),
    gender: null,
    emotion: null,
    word_times_estimated: conversation.estimatedWordTimes,
    issues: detectionsOf('issue'),
    outcomes: detectionsOf('outcome'),
    action_items: detectionsOf('action'),
    summary,
    ...(switches.insights && { insights: [...(record.analytics?.insights ?? []), ...analyticsInsights] }),
  };

  const conversationOut = {
    ...record.conversation,
    duration: figures.duration,
    silence: figures.silence,
    overtalk: figures.overtalk.total,
    speakerChanges: figures.speakerChanges,
    channels: new Set(conversation.utterances.map((u) => u.channel)).size,
    ...(agent && { agentUtterances: agent.utterances, agentTalkTime: agent.talkTime }),
    ...(caller && { callerUtterances: caller.utterances, callerTalkTime: caller.talkTime }),
    ...(switches.sentiment && {
      ...(figures.overall && { sentiment: figures.overall.polarity }),
      ...(agent?.sentiment && { agentSentiment: agent.sentiment.polarity, ...(agent.sentiment.confidence !== null && { agentSentimentConfidence: round3(agent.sentiment.confidence)! }) }),
      ...(caller?.sentiment && { callerSentiment: caller.sentiment.polarity, ...(caller.sentiment.confidence !== null && { callerSentimentConfidence: round3(caller.sentiment.confidence)! }) }),
      positivePhrases: figures.positivePhrases!.length,
      negativePhrases: figures.negativePhrases!.length,
    }),
  };

  return {
    record: {
      ...record,
      utterances,
      conversation: conversationOut,
      analytics: analytics as EventRecord['analytics'],
      ...(switches.insights && { insightLines: [...(record.insightLines ?? []), ...insightLines] }),
      ...(switches.keywords && { keyPhrases: [...(record.keyPhrases ?? []), ...kp] }),
      entities,
      insightsCreated: insightLines.length,
      segmentsCreated: conversation.utterances.length,
    },
    conversation,
    figures,
    insights,
  };
}

function withSentiment(u: Utterance, s: { polarity: number; confidence: number | null } | undefined): Utterance {
  if (!s) return u;
  return { ...u, sentiment: s.polarity, ...(s.confidence !== null && { sentimentConfidence: round3(s.confidence)! }) };
}
