// When each stretch of a live channel's audio arrived (wall clock), so that a message about stream time t can say
// how long after the audio up to t arrived it was sent: a partial's lag, a final's delay from its last word's end.
// Only the last WINDOW_SECONDS of stream time are kept (finals never trail the audio by that much).

const WINDOW_SECONDS = 600;

export class ArrivalClock {
  /** Per channel: the stream time each accepted chunk ended at (s), and when it arrived (ms), in order. */
  private readonly ends: number[][];
  private readonly times: number[][];
  private readonly first: number[];

  constructor(channels: number) {
    this.ends = Array.from({ length: channels }, () => []);
    this.times = Array.from({ length: channels }, () => []);
    this.first = new Array<number>(channels).fill(0);
  }

  /** The channel's audio now reaches `endSeconds` of stream time. */
  arrived(channel: number, endSeconds: number, atMs = Date.now()): void {
    const ends = this.ends[channel];
    const times = this.times[channel];
    ends.push(endSeconds);
    times.push(atMs);
    // Drop what fell out of the window; compact now and then rather than shifting on every chunk.
    let first = this.first[channel];
    while (first < ends.length && ends[first] < endSeconds - WINDOW_SECONDS) first++;
    if (first > 1024 && first * 2 > ends.length) {
      ends.splice(0, first);
      times.splice(0, first);
      first = 0;
    }
    this.first[channel] = first;
  }

  /** When the channel's audio up to `seconds` of stream time had arrived (ms), or undefined when not kept. */
  arrivedAt(channel: number, seconds: number): number | undefined {
    const ends = this.ends[channel];
    if (!ends) return undefined;
    let lo = this.first[channel];
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] < seconds) lo = mid + 1;
      else hi = mid;
    }
    return lo < ends.length ? this.times[channel][lo] : undefined;
  }
}
