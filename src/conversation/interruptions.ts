// Interruptions, attributed to a party (pure): speaker X interrupts speaker Y when a stretch of X's talk (a run of
// X's words with no gap: the union of their intervals) begins strictly inside a stretch of Y's talk. Its time is how
// long X's stretch overlaps Y's talk. A reply that starts as the other stops (touching, or after a gap) is no
// interruption; two stretches starting at the same instant interrupt nobody.
import { intersect, lengthOf, ms, type Interval } from './intervals.js';

export interface Interruption {
  /** Who cut in. */
  speaker: number;
  /** Who was talking. */
  interrupted: number;
  /** How many times. */
  count: number;
  /** Seconds of over-talk those interruptions made (the cutting-in stretches' overlap with the other's talk). */
  time: number;
  /** When each began (s). */
  at: number[];
}

/** Interruptions per (interrupter, interrupted) pair, from each speaker's talk (sorted, disjoint intervals). */
export function interruptionsOf(bySpeaker: ReadonlyMap<number, readonly Interval[]>): Interruption[] {
  const out: Interruption[] = [];
  for (const [speaker, own] of bySpeaker) {
    for (const [other, theirs] of bySpeaker) {
      if (other === speaker) continue;
      const at: number[] = [];
      let time = 0;
      let j = 0;
      for (const stretch of own) {
        // theirs is sorted: skip the stretches that ended before this one starts.
        while (j < theirs.length && theirs[j].end <= stretch.start) j++;
        const talking = theirs[j];
        if (talking && talking.start < stretch.start && stretch.start < talking.end) {
          at.push(stretch.start);
          time += lengthOf(intersect([stretch], theirs));
        }
      }
      if (at.length > 0) out.push({ speaker, interrupted: other, count: at.length, time: ms(time), at });
    }
  }
  return out;
}
