// Small display helpers shared by the views.
export const seconds = (s: number | undefined | null): string => {
  if (s === undefined || s === null || !Number.isFinite(s)) return '—';
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  return `${m}:${rest.toFixed(1).padStart(4, '0')}`;
};

// One formatter for every date shown: toLocaleString() builds a new one per call, which costs most of the time a
// page of 500 jobs takes to draw.
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });
export const when = (iso: string | undefined | null): string => (iso ? DATE_TIME.format(new Date(iso)) : '—');

export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
