// Sensitive windows: stretches of one channel's audio (and the words in them) redacted whatever the recognizer
// made of them. Found from recognized entities, spoken cues ("can I have the card number"), number-shaped speech,
// keypad tones, or marked by the client (an agent desktop's pause/resume). Only times and kinds: never a value.

/** What found a window. */
export type WindowSource = 'entity' | 'cue' | 'number' | 'mark' | 'keypad' | 'insight';

export interface SensitiveWindow {
  /** The channel whose audio and words are redacted (0-based). */
  channel: number;
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  /** The redaction kind the window stands for (an entity kind name, e.g. CreditCardNumber), or 'SENSITIVE'. */
  kind: string;
  source: WindowSource;
  /** What opened it, for the report (e.g. the cue phrase matched); never a redacted value. */
  reason?: string;
}

/** Finds windows in a recognized transcript (times in seconds, channels as in the transcript). */
export type WindowFinder<T> = (transcript: T) => SensitiveWindow[];
