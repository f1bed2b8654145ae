// Small display helpers shared by the views.
export const seconds = (s: number | undefined | null): string => {
  if (s === undefined || s === null || !Number.isFinite(s)) return '—';
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  return `${m}:${rest.toFixed(1).padStart(4, '0')}`;
};

export const when = (iso: string | undefined | null): string => (iso ? new Date(iso).toLocaleString() : '—');

export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
