// Resource 18: call analytics.
import Type, { type Static } from 'typebox';
import { bool, content, dateTime, group, ident, int, nullable, num, open, opt, phone } from '../fields.js';

/** A number, or null where nothing could be measured (issue 18). */
const nullableNum = () => Type.Union([Type.Number(), Type.Null()]);

export const AnalyticsInsight = open({
  ...group(['id', 'speaker', 'type', 'direction', 'language'], ident),
  ...group(
    ['name', 'expression', 'phrase', 'response_summary', 'response_expression', 'response_phrase', 'insight_group'],
    content,
  ),
  ...group(['timestamp', 'response_timestamp'], num),
  value: opt(nullable()),
  // Issue 18: set by post-call processing.
  ...group(['alert', 'complianceViolation'], bool),
  alertMessage: opt(content()),
});

/** A word of the sentiment lexicon said in a line (issue 18). */
const SentimentPhrase = open({ ...group(['line', 'speaker'], int), phrase: opt(content()) });

/** Figures of one speaker (issue 18): on a mono recording the only per-speaker figures. */
const SentimentQuarter = Type.Union([open({ sentiment: opt(ident()), score: opt(Type.Number()) }), Type.Null()]);

const SpeakerFigures = open({
  ...group(['speaker', 'utterances', 'words', 'interruptions', 'interrupted'], int),
  ...group(['role', 'sentiment'], ident),
  ...group(['talk_time', 'words_per_minute', 'sentiment_confidence', 'interruption_time'], nullableNum),
  sentiment_quarters: opt(Type.Array(SentimentQuarter, { maxItems: 4, description: 'Sentiment of the speaker per quarter of the call (by when each utterance starts); null where the speaker said nothing in it.' })),
});

/** Who cut in on whom (post-call figures). */
const InterruptionFigures = open({
  ...group(['speaker', 'interrupted', 'count'], int),
  time: opt(Type.Number({ description: "Seconds of over-talk the interruptions made." })),
  at: opt(Type.Array(Type.Number(), { description: 'When each interruption began (s).' })),
});

/** A stretch of at least 2 s where nobody speaks. */
const NonTalkStretch = open({ ...group(['start', 'end', 'duration'], num) });

/** An issue, outcome or action item said in the call (issue 35): from the redacted transcript. */
const OutcomeDetection = open({
  ...group(['line', 'speaker'], int),
  role: opt(ident()),
  ...group(['start', 'end'], num),
  phrase: opt(content({ description: 'The lexicon phrase that matched.' })),
  text: opt(content({ description: 'The sentence it was said in, as the redacted transcript has it.' })),
});

/** The extractive call summary (issue 35): sentences of the redacted transcript, ranked. */
const CallSummary = open({
  text: opt(content({ description: "The chosen sentences in call order; '' when nothing was detected." })),
  sentences: opt(
    Type.Array(
      open({
        kind: opt(ident({ description: 'issue | outcome | action' })),
        ...group(['rank', 'score', 'line', 'speaker'], int),
        start: opt(num()),
        text: opt(content()),
      }),
    ),
  ),
});

/** Loudness of one party over the call (issue 35): RMS level per bucket of the decoded recording. */
const PartyLoudness = open({
  ...group(['channel', 'speaker'], int),
  role: opt(ident()),
  bucket_seconds: opt(num()),
  dbfs: opt(Type.Array(nullableNum(), { description: 'RMS level of each bucket in dBFS (0 = full scale); null for digital silence.' })),
  average_dbfs: opt(nullableNum()),
  peak_dbfs: opt(nullableNum()),
});

export const Analytics = open(
  {
    ...group(
      [
        'id', 'call_type', 'diarization', 'direction', 'language_agent', 'language_caller', 'sentiment_agent',
        'sentiment_caller', 'agentid', 'supervisorid', 'recordingid', 'clienthierarchyid', 'programhierarchyid',
        'agencyhierarchyid', 'sitehierarchyid',
      ],
      ident,
    ),
    // Names of people and of things named by people, and whatever the redacted outputs hold.
    ...group(
      [
        'name', 'campaign', 'team', 'agent', 'client', 'program', 'site', 'supervisor', 'playbackparameter',
        'audio_redacted', 'text_redacted',
      ],
      content,
    ),
    // `caller` holds a number or a name: masked whole with PhoneNumber, else searched.
    ...group(['ani', 'dnis', 'caller'], phone),
    ...group(['call_start', 'call_end'], dateTime),
    ...group(
      [
        'total_duration', 'overtalk', 'silence',
      ],
      num,
    ),
    // null where the call has no such side (a mono recording has no roles) or nothing was measured.
    ...group(
      ['talk_time_agent', 'talk_time_caller', 'sentiment_confidence_agent', 'sentiment_confidence_caller'],
      nullableNum,
    ),
    ...group(['resolution', 'auto_fail', 'word_times_estimated'], bool),
    // Issue 18: figures of post-call processing (null where a recording has no roles).
    ...group(
      [
        'overtalk_count', 'overtalk_average', 'speaker_changes', 'utterances_agent', 'utterances_caller',
        'words_per_minute_agent', 'words_per_minute_caller', 'interruptions_agent', 'interruptions_caller',
      ],
      nullableNum,
    ),
    interruptions: opt(Type.Array(InterruptionFigures)),
    non_talk: opt(Type.Array(NonTalkStretch)),
    ...group(['sentiment_start_agent', 'sentiment_end_agent', 'sentiment_start_caller', 'sentiment_end_caller'], ident),
    ...group(['positive_phrases', 'negative_phrases'], () => Type.Array(SentimentPhrase)),
    speakers: opt(Type.Array(SpeakerFigures)),
    ...group(['gender', 'emotion'], nullable),
    ...group(['propensity', 'recomendation', 'satisfaction'], nullable),
    insights: opt(Type.Array(AnalyticsInsight)),
    // Issue 35: what the call was about and how it ended, from the redacted transcript; loudness from the audio.
    ...group(['issues', 'outcomes', 'action_items'], () => Type.Array(OutcomeDetection)),
    summary: opt(CallSummary),
    loudness: opt(Type.Array(PartyLoudness)),
  },
  { title: 'analytics', description: 'Resource 18.' },
);
export type Analytics = Static<typeof Analytics>;
