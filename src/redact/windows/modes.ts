// A project's conservative window mode (projectConfig.windowMode): windows that add to the windows found and
// marked, never replace them.
// - windows (default): each window redacts its own channel for its own time (a cue window on the caller's
//   channel mutes the caller for that window).
// - payment-segment: the caller's channel is muted over each payment segment, whatever channel its windows were
//   on: windows no more than PAYMENT_SEGMENT_JOIN_SECONDS apart join one segment (from the first's start to the
//   last's end), and a segment grows to at most PAYMENT_SEGMENT_MAX_SECONDS. A stray window far from the payment
//   is a segment of its own (its own time): it never stretches the payment over the rest of the call.
// - agent-only: the caller's channel is muted whole, and all its words masked. On a mono recording both
//   parties share the one channel: it is muted whole (more, never less).
import type { WindowMode } from '../../schema/resources/projectConfig.js';
import { type AppliedWindow, SENSITIVE_KIND } from './apply.js';

/** Windows closer than this (s) belong to one payment segment (the exchange of card, expiry and code). */
export const PAYMENT_SEGMENT_JOIN_SECONDS = 20;
/** A payment segment grows to at most this (s): a window past it starts a new segment. */
export const PAYMENT_SEGMENT_MAX_SECONDS = 120;

export interface ModeContext {
  mode?: WindowMode;
  /** Channels of the recording (or transcript). */
  channels: number;
  /** The agent's channel (transcript/roles.ts agentChannel). */
  agentChannel: number;
  /** Seconds. */
  duration: number;
  /** Payment-segment bounds (tests); PAYMENT_SEGMENT_JOIN_SECONDS and PAYMENT_SEGMENT_MAX_SECONDS when absent. */
  joinSeconds?: number;
  maxSeconds?: number;
}

/** The caller's channels: every channel but the agent's; the one channel of a mono recording. */
export function callerChannels(channels: number, agentChannel: number): number[] {
  if (channels <= 1) return [0];
  return Array.from({ length: channels }, (_, c) => c).filter((c) => c !== agentChannel);
}

/** The windows `mode` adds to `windows` (source 'mode'). */
export function modeWindows(windows: readonly AppliedWindow[], context: ModeContext): AppliedWindow[] {
  const callers = callerChannels(context.channels, context.agentChannel);
  if (context.mode === 'agent-only') {
    return callers.map((channel) => ({ channel, start: 0, end: context.duration, kind: SENSITIVE_KIND, source: 'mode', reason: 'agent-only' }));
  }
  if (context.mode === 'payment-segment') {
    return paymentSegments(windows, context).flatMap(({ start, end }) =>
      callers.map((channel): AppliedWindow => ({ channel, start, end, kind: SENSITIVE_KIND, source: 'mode', reason: 'payment-segment' })),
    );
  }
  return [];
}

/**
 * The payment segments of `windows`, in time order: windows joined while the next starts within joinSeconds of
 * the segment's end and the segment stays within maxSeconds. A window longer than maxSeconds is its own segment,
 * whole (a segment never cuts a window short).
 */
export function paymentSegments(windows: readonly AppliedWindow[], context: Pick<ModeContext, 'joinSeconds' | 'maxSeconds'> = {}): { start: number; end: number }[] {
  const join = context.joinSeconds ?? PAYMENT_SEGMENT_JOIN_SECONDS;
  const max = context.maxSeconds ?? PAYMENT_SEGMENT_MAX_SECONDS;
  const segments: { start: number; end: number }[] = [];
  for (const w of [...windows].sort((a, b) => a.start - b.start)) {
    const last = segments[segments.length - 1];
    if (last && w.start - last.end <= join && Math.max(last.end, w.end) - last.start <= max) last.end = Math.max(last.end, w.end);
    else segments.push({ start: w.start, end: w.end });
  }
  return segments;
}
