// Time intervals (seconds): the union of a set of word intervals, its length, and the intersection of two unions.
// Every talk-time, silence and over-talk figure is one of these over word times.
export interface Interval {
  start: number;
  end: number;
}

/** Sorted, non-overlapping intervals covering exactly what the input covers (touching intervals merge). */
export function union(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ start: i.start, end: i.end });
  }
  return out;
}

export function lengthOf(intervals: readonly Interval[]): number {
  return intervals.reduce((sum, i) => sum + (i.end - i.start), 0);
}

/** Intersection of two unions (each sorted and disjoint). */
export function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const start = Math.max(a[i].start, b[j].start);
    const end = Math.min(a[i].end, b[j].end);
    if (end > start) out.push({ start, end });
    if (a[i].end < b[j].end) i++;
    else j++;
  }
  return out;
}

/** Rounded to the millisecond: figures are sums of decimal seconds in binary floating point. */
export const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;
