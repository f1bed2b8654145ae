// A detected sensitive value: what kind, where (characters, and words when the input was a word array), how sure.
import type { EntityKind } from './entityKinds.js';

export interface Detection {
  kind: EntityKind;
  /** The covered text (a slice of the input text; for a word array, of the words joined by single spaces). */
  text: string;
  /** Character offsets into the input text (end exclusive). */
  start: number;
  end: number;
  /** Word indices (end exclusive), when the input was a word array. */
  wordStart?: number;
  wordEnd?: number;
  /** 0..1 */
  confidence: number;
  /** Which recognizer produced it. */
  recognizer: string;
  /**
   * A floor: never dropped by a confidence threshold (the digit safety net, a recognizer that failed closed).
   * Its confidence still only chooses the label where detections overlap.
   */
  floor?: boolean;
  /**
   * From a detector that only adds to what the rules mask (the tagger): it never changes what a rule's finding is
   * taken to be (spans.ts: the values a record remembers are the rules' alone).
   */
  additive?: boolean;
}

export interface DetectOptions {
  /** Only these kinds (the default kinds, DEFAULT_KINDS, when absent). */
  kinds?: readonly EntityKind[];
  /** Drop detections below this confidence (default 0). */
  minConfidence?: number;
  /** Person sources (for evaluation): cue phrases and the name list (on by default), compromise (on only where the tagger is off). */
  personSources?: { cues?: boolean; nameList?: boolean; compromise?: boolean };
  /** The statistical tagger (Person, Address; src/redact/tagger/): on unless false (evaluation, benches). */
  tagger?: boolean;
}
