// Call analytics of one conversation, every figure from utterance and word times (pure):
// - duration: the recording's length when the source states it, else the end of the last word;
// - talk time of a speaker: the length of the union of its words' intervals;
// - silence: the duration less the length of the union of every word's interval (nobody speaking);
// - over-talk: the stretches where words of two speakers overlap in time (count of maximal stretches, their
//   total and average length);
// - speaker changes: consecutive utterances (in conversation order) of different speakers;
// - talk speed: words per minute of talk time;
// - sentiment: per utterance, per speaker, and at the start (first third of a speaker's utterances, at least one)
//   against the end (last third).
// - interruptions: who cut in on whom, how often and for how long (interruptions.ts);
// - non-talk: the gaps of at least 2 s where nobody speaks (nonTalk.ts);
// - sentiment by quarter: each speaker's utterances grouped by the quarter of the call they start in.
// Figures are seconds rounded to the millisecond. Agent/caller figures are null on a mono recording (no roles).
import { type Interruption, interruptionsOf } from './interruptions.js';
import { intersect, lengthOf, ms, union, type Interval } from './intervals.js';
import { type NonTalk, nonTalkOf } from './nonTalk.js';
import { combine, scoreText, type Polarity, type SentimentScore } from './sentiment.js';
import type { Conversation, ConversationUtterance } from './types.js';

export interface SpeakerFigures {
  speaker: number;
  role?: 'agent' | 'caller';
  talkTime: number;
  utterances: number;
  words: number;
  /** null when the speaker has no talk time. */
  wordsPerMinute: number | null;
  sentiment?: SideSentiment;
  /** Times this speaker cut in on another, and the over-talk seconds those made. */
  interruptions: number;
  interruptionTime: number;
  /** Times another cut in on this speaker. */
  interrupted: number;
}

export interface SideSentiment {
  polarity: Polarity;
  score: number;
  confidence: number | null;
  start: Polarity;
  end: Polarity;
  /** Per quarter of the call (by when an utterance starts): null where the speaker said nothing in it. */
  quarters: ({ polarity: Polarity; score: number } | null)[];
}

export interface UtteranceSentiment {
  line: number;
  polarity: Polarity;
  score: number;
  confidence: number | null;
}

export interface Phrase {
  line: number;
  speaker: number;
  phrase: string;
  polarity: 1 | -1;
}

export interface CallFigures {
  duration: number;
  silence: number;
  overtalk: { count: number; total: number; average: number | null };
  speakerChanges: number;
  speakers: SpeakerFigures[];
  interruptions: Interruption[];
  nonTalk: NonTalk[];
  /** Present when sentiment was asked for. */
  utteranceSentiment?: UtteranceSentiment[];
  positivePhrases?: Phrase[];
  negativePhrases?: Phrase[];
  overall?: { polarity: Polarity; score: number; confidence: number | null };
}

export interface AnalyticsOptions {
  sentiment?: boolean;
}

const wordIntervals = (utterances: readonly ConversationUtterance[]): Interval[] =>
  utterances.flatMap((u) => u.words.map((w) => ({ start: w.start, end: w.end })));

/** Over-talk: the stretches where at least two speakers' words overlap. */
function overtalkOf(bySpeaker: Map<number, Interval[]>): Interval[] {
  const speakers = [...bySpeaker.values()];
  const pairs: Interval[] = [];
  for (let i = 0; i < speakers.length; i++) for (let j = i + 1; j < speakers.length; j++) pairs.push(...intersect(speakers[i], speakers[j]));
  return union(pairs);
}

/** The quarter (0-3) of a call of `duration` s that `start` falls in. */
function quarterOf(start: number, duration: number): number {
  return duration > 0 ? Math.min(3, Math.max(0, Math.floor((start / duration) * 4))) : 0;
}

function sideSentiment(scores: readonly SentimentScore[], quarterOfEach: readonly number[]): SideSentiment {
  const third = Math.max(1, Math.ceil(scores.length / 3));
  const all = combine(scores);
  const quarters = [0, 1, 2, 3].map((q) => {
    const inQuarter = scores.filter((_, k) => quarterOfEach[k] === q);
    if (inQuarter.length === 0) return null;
    const c = combine(inQuarter);
    return { polarity: c.polarity, score: c.score };
  });
  return {
    quarters,
    polarity: all.polarity,
    score: all.score,
    confidence: all.confidence === undefined ? null : all.confidence,
    start: combine(scores.slice(0, third)).polarity,
    end: combine(scores.slice(-third)).polarity,
  };
}

export function callFigures(conversation: Conversation, options: AnalyticsOptions = {}): CallFigures {
  const { utterances } = conversation;
  const speech = union(wordIntervals(utterances));
  const lastEnd = speech.length > 0 ? Math.max(speech[speech.length - 1].end, ...utterances.map((u) => u.end)) : utterances.reduce((m, u) => Math.max(m, u.end), 0);
  const duration = Math.max(conversation.audioSeconds ?? 0, lastEnd);

  const ids = [...new Set(utterances.map((u) => u.speaker))].sort((a, b) => a - b);
  const bySpeaker = new Map(ids.map((id) => [id, union(wordIntervals(utterances.filter((u) => u.speaker === id)))]));
  const overtalk = overtalkOf(bySpeaker);
  const overtalkTotal = lengthOf(overtalk);
  const interruptions = interruptionsOf(bySpeaker);

  let speakerChanges = 0;
  for (let i = 1; i < utterances.length; i++) if (utterances[i].speaker !== utterances[i - 1].speaker) speakerChanges++;

  const scores = options.sentiment ? utterances.map((u) => scoreText(u.text)) : undefined;
  const speakers: SpeakerFigures[] = ids.map((id) => {
    const own = utterances.filter((u) => u.speaker === id);
    const talkTime = lengthOf(bySpeaker.get(id)!);
    const words = own.reduce((n, u) => n + u.words.length, 0);
    const role = own.find((u) => u.role)?.role;
    return {
      speaker: id,
      ...(role && { role }),
      talkTime: ms(talkTime),
      utterances: own.length,
      words,
      wordsPerMinute: talkTime > 0 ? Math.round((words / talkTime) * 60 * 10) / 10 : null,
      interruptions: interruptions.filter((i) => i.speaker === id).reduce((n, i) => n + i.count, 0),
      interruptionTime: ms(interruptions.filter((i) => i.speaker === id).reduce((n, i) => n + i.time, 0)),
      interrupted: interruptions.filter((i) => i.interrupted === id).reduce((n, i) => n + i.count, 0),
      ...(scores && { sentiment: sideSentiment(own.map((u) => scores[u.line]), own.map((u) => quarterOf(u.start, duration))) }),
    };
  });

  const figures: CallFigures = {
    duration: ms(duration),
    silence: ms(Math.max(0, duration - lengthOf(speech))),
    overtalk: { count: overtalk.length, total: ms(overtalkTotal), average: overtalk.length ? ms(overtalkTotal / overtalk.length) : null },
    speakerChanges,
    speakers,
    interruptions,
    nonTalk: nonTalkOf(speech, duration),
  };
  if (scores) {
    figures.utteranceSentiment = scores.map((s, line) => ({ line, polarity: s.polarity, score: s.score, confidence: s.confidence ?? null }));
    const phrases = (polarity: 1 | -1): Phrase[] =>
      utterances.flatMap((u) => (polarity === 1 ? scores[u.line].positive : scores[u.line].negative).map((phrase) => ({ line: u.line, speaker: u.speaker, phrase, polarity })));
    figures.positivePhrases = phrases(1);
    figures.negativePhrases = phrases(-1);
    const all = combine(scores);
    figures.overall = { polarity: all.polarity, score: all.score, confidence: all.confidence ?? null };
  }
  return figures;
}
