// Non-talk stretches (pure): where nobody speaks for at least NON_TALK_MIN_SECONDS, from the start of the call to
// its end (the recording's length). The silence figure counts every gap; this lists the ones a supervisor would
// notice (hold, dead air, a long search).
import { ms, type Interval } from './intervals.js';

/** Shortest gap listed (s). */
export const NON_TALK_MIN_SECONDS = 2;

export interface NonTalk {
  start: number;
  end: number;
  duration: number;
}

/** The gaps of `speech` (sorted, disjoint) within [0, duration] at least `min` long. */
export function nonTalkOf(speech: readonly Interval[], duration: number, min = NON_TALK_MIN_SECONDS): NonTalk[] {
  const out: NonTalk[] = [];
  let from = 0;
  for (const talk of [...speech, { start: duration, end: duration }]) {
    const to = Math.min(talk.start, duration);
    if (ms(to - from) >= min) out.push({ start: ms(from), end: ms(to), duration: ms(to - from) });
    from = Math.max(from, talk.end);
  }
  return out;
}
