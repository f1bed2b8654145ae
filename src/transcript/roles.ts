// Channel -> speaker and role. Contact-center recordings are stereo with one party per channel; which side
// is the agent comes from the campaign's `agentLocation` (project configuration `agent_location`), 'left'
// (channel 0) unless told otherwise. Speaker integers (resource 11, 12, 13, 14) follow the role: 0 is the
// agent, 1 the caller, so they mean the same thing whichever side the agent was recorded on.

export type Role = 'agent' | 'caller';

export interface RoleOptions {
  /** 'left' | 'right' (also accepted: 'l'/'r', '0'/'1', 'channel_1'/'channel_2', 'first'/'second'). */
  agentLocation?: string;
  /**
   * 'inbound' | 'outbound'. Accepted so callers pass what they know, but it does not move the agent: the
   * recorder fixes the channel order, and agentLocation states it (as V-Blaze and the project configuration do).
   */
  direction?: string;
  /** Campaign channelDiarizationLabels, e.g. "agent,caller" or "Customer|Agent": the agent's position, when agentLocation is absent. */
  channelLabels?: string;
}

export interface ChannelSpeaker {
  channel: number;
  /** 0 agent, 1 caller (further channels 2, 3, ...); 0 on a mono recording. */
  speaker: number;
  /** Absent on a mono recording (one channel, both parties). */
  role?: Role;
  /** Display name: 'Agent', 'Caller', or 'Speaker' on mono. */
  label: string;
  /** json-v2 speaker label: 'S1' for speaker 0, 'S2' for speaker 1, ... */
  tag: string;
}

const LEFT = new Set(['left', 'l', '0', 'channel_1', 'channel1', 'ch0', 'first', 'agent-left', 'agent_left']);
const RIGHT = new Set(['right', 'r', '1', 'channel_2', 'channel2', 'ch1', 'second', 'agent-right', 'agent_right']);

function fromLocation(location: string | undefined): 0 | 1 | undefined {
  const value = location?.trim().toLowerCase();
  if (!value) return undefined;
  if (LEFT.has(value)) return 0;
  if (RIGHT.has(value)) return 1;
  return undefined;
}

function fromLabels(labels: string | undefined): 0 | 1 | undefined {
  if (!labels) return undefined;
  const parts = labels.split(/[,;|/\s]+/).map((p) => p.trim().toLowerCase()).filter(Boolean);
  const index = parts.findIndex((p) => p === 'agent' || p === 'rep' || p === 'representative');
  return index === 0 || index === 1 ? index : undefined;
}

/** The channel the agent was recorded on: 0 (left, the default) or 1 (right). */
export function agentChannel(options: RoleOptions = {}): 0 | 1 {
  return fromLocation(options.agentLocation) ?? fromLabels(options.channelLabels) ?? 0;
}

/** The role of a channel of a stereo recording. */
export function roleOf(channel: number, options: RoleOptions = {}): Role {
  return channel === agentChannel(options) ? 'agent' : 'caller';
}

/** Speaker integer of a role (resource 11 `speaker`). */
export function speakerOfRole(role: Role): 0 | 1 {
  return role === 'agent' ? 0 : 1;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Speaker, role and labels of each channel of a recording (keyed by channel index). With one channel there is
 * no role; with two, one agent and one caller; further channels are callers numbered 2, 3, ...
 */
export function speakersOf(channels: readonly number[], options: RoleOptions = {}): Map<number, ChannelSpeaker> {
  const sorted = [...new Set(channels)].sort((a, b) => a - b);
  const map = new Map<number, ChannelSpeaker>();
  if (sorted.length <= 1) {
    for (const channel of sorted) map.set(channel, { channel, speaker: 0, label: 'Speaker', tag: 'S1' });
    return map;
  }
  const agentIndex = agentChannel(options);
  const agent = sorted.includes(agentIndex) ? agentIndex : sorted[0];
  let next = 1;
  for (const channel of sorted) {
    const role: Role = channel === agent ? 'agent' : 'caller';
    const speaker = role === 'agent' ? 0 : next++;
    map.set(channel, { channel, speaker, role, label: capitalize(role), tag: `S${speaker + 1}` });
  }
  return map;
}
