// A project's conservative window mode (projectConfig.windowMode): windows that add to the windows found and
// marked, never replace them.
// - windows (default): each window redacts its own channel for its own time (a cue window on the caller's
//   channel mutes the caller for that window).
// - payment-segment: the caller's channel is muted from the start of the first window to the end of the last
//   (the whole payment, between the marks), whatever channel the windows were on.
// - agent-only: the caller's channel is muted whole, and all its words masked. On a mono recording both
//   parties share the one channel: it is muted whole (more, never less).
import type { WindowMode } from '../../schema/resources/projectConfig.js';
import { type AppliedWindow, SENSITIVE_KIND } from './apply.js';

export interface ModeContext {
  mode?: WindowMode;
  /** Channels of the recording (or transcript). */
  channels: number;
  /** The agent's channel (transcript/roles.ts agentChannel). */
  agentChannel: number;
  /** Seconds. */
  duration: number;
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
  if (context.mode === 'payment-segment' && windows.length > 0) {
    const start = windows.reduce((t, w) => Math.min(t, w.start), Infinity);
    const end = windows.reduce((t, w) => Math.max(t, w.end), 0);
    return callers.map((channel) => ({ channel, start, end, kind: SENSITIVE_KIND, source: 'mode', reason: 'payment-segment' }));
  }
  return [];
}
