// The one conversation every analysis works on (issue 18): timed utterances of timed words, each with the speaker
// and, on a recording with one party per channel, the role. Built by normalize.ts from whatever a post-call
// record carries or a finished job produced; analytics, insights, key phrases and entities read only this.
import type { Role } from '../transcript/roles.js';

export interface ConversationWord {
  /** The word as it stands in the (already redacted) source: a mask such as [PERSON] is one word. */
  text: string;
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  confidence?: number;
}

export interface ConversationUtterance {
  /** 0-based position in conversation order: the `line` of insight lines, key phrases and entities. */
  line: number;
  /** Audio channel (stereo), or the engine's speaker index on a mono recording. */
  channel: number;
  /** 0 agent, 1 caller (stereo, roles known); the engine's speaker index on mono. */
  speaker: number;
  /** Absent on a mono recording: the engine's speakers are kept, not guessed into roles. */
  role?: Role;
  start: number;
  end: number;
  text: string;
  words: ConversationWord[];
}

/** Where a conversation came from (the record field, or a job's transcript). */
export type ConversationSource =
  | 'vendorATranscript'
  | 'vendorBTranscript'
  | 'processJob.transcript'
  | 'processJob.vendorATranscript'
  | 'processJob.vendorBTranscript'
  | 'utterances'
  | 'job'
  | 'realTime';

export interface Conversation {
  source: ConversationSource;
  utterances: ConversationUtterance[];
  /** True when every party was on its own channel, so roles are known. */
  stereo: boolean;
  /** Length of the recording when the source states it (audiosecs, job duration), else undefined. */
  audioSeconds?: number;
  /** True when word times were spread evenly over an utterance that carried none (record utterances[]). */
  estimatedWordTimes: boolean;
}
