// Sentiment of a piece of text with the AFINN-165 lexicon (npm `sentiment`, MIT; negation-aware: "not happy"
// scores negative). An utterance's label is the sign of its score; its confidence is how much its scored words
// agree: |sum of scores| / sum of |scores| (1 when every scored word points the same way, 0 when they cancel).
// Text with no lexicon word is neutral with no confidence (nothing was measured).
import Sentiment from 'sentiment';

const analyzer = new Sentiment();

export type Polarity = -1 | 0 | 1;

export interface SentimentScore {
  /** AFINN sum over the words (negated words count against). */
  score: number;
  polarity: Polarity;
  /** undefined when no word of the lexicon was found. */
  confidence?: number;
  /** Sum of |score| of the scored words. */
  magnitude: number;
  positive: string[];
  negative: string[];
}

/** Masks such as [PERSON] or [CREDIT_CARD_NUMBER_1] are not words of the lexicon. */
const MASK = /\[[^\]\s]*\]/g;

export function scoreText(text: string): SentimentScore {
  const result = analyzer.analyze(text.replace(MASK, ' '));
  const magnitude = result.calculation.reduce((sum, c) => sum + Math.abs(Object.values(c)[0] ?? 0), 0);
  const polarity: Polarity = result.score > 0 ? 1 : result.score < 0 ? -1 : 0;
  return {
    score: result.score,
    polarity,
    ...(magnitude > 0 && { confidence: Math.abs(result.score) / magnitude }),
    magnitude,
    positive: result.positive,
    negative: result.negative,
  };
}

/** Combined sentiment of several scores (a side, the start or end of a call). */
export function combine(scores: readonly SentimentScore[]): { score: number; polarity: Polarity; confidence?: number } {
  const score = scores.reduce((s, x) => s + x.score, 0);
  const magnitude = scores.reduce((s, x) => s + x.magnitude, 0);
  const polarity: Polarity = score > 0 ? 1 : score < 0 ? -1 : 0;
  return { score, polarity, ...(magnitude > 0 && { confidence: Math.abs(score) / magnitude }) };
}

export const POLARITY_NAME: Record<Polarity, 'positive' | 'neutral' | 'negative'> = { 1: 'positive', 0: 'neutral', [-1]: 'negative' };
