// The x range of a daily chart, in uPlot's time unit (seconds): the days shown plus a day either side. Computed
// from the days themselves, never from uPlot's own guess: for a single point uPlot widens a time scale by
// 86400 / ms "seconds" (1000 days at its default ms of 1e-3), which labelled one day of data 2027–2029.
export function dayRange(xs: number[]): [number, number] {
  const first = Math.min(...xs);
  const last = Math.max(...xs);
  return [first - 86_400, last + 86_400];
}

/** A day (YYYY-MM-DD) as the chart's x value: its noon UTC, in seconds. */
export const dayX = (day: string): number => Date.parse(`${day}T12:00:00Z`) / 1000;
