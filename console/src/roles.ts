// Who each channel of a call is: the service names the agent's channel speaker S1 and the caller's S2 (and
// further callers S3, ...) in the json-v2 transcript (src/transcript/roles.ts), whichever side the agent was
// recorded on; so the console reads the labels from the transcript's own speaker tags rather than guessing
// from the channel's position. A mono call has one channel and no roles: its speakers keep their tags.

interface TaggedItem {
  channel?: string;
  alternatives?: { speaker?: string }[];
}

/** The channel index of a json-v2 item ("channel_2" is 1). */
export const channelOf = (item: TaggedItem): number => Math.max(0, Number(/(\d+)$/.exec(item.channel ?? '')?.[1] ?? 1) - 1);

/** The label of each channel of a stereo call ('Agent', 'Caller', 'Caller 2', ...); empty on mono. */
export function channelLabels(results: readonly TaggedItem[] | undefined, channels: number, agentLocation?: unknown): Map<number, string> {
  const labels = new Map<number, string>();
  if (channels < 2) return labels;
  for (const item of results ?? []) {
    const channel = channelOf(item);
    if (labels.has(channel)) continue;
    const speaker = Number(/^S(\d+)$/.exec(item.alternatives?.[0]?.speaker ?? '')?.[1]);
    if (!Number.isInteger(speaker) || speaker < 1) continue;
    labels.set(channel, speaker === 1 ? 'Agent' : speaker === 2 ? 'Caller' : `Caller ${speaker - 1}`);
  }
  // A channel with no word yet: the agent's side is where the job said (agent_location), left unless told.
  const agent = [...labels].find(([, l]) => l === 'Agent')?.[0] ?? (agentLocation === 'right' ? 1 : 0);
  for (let c = 0; c < channels; c++) if (!labels.has(c)) labels.set(c, c === agent ? 'Agent' : 'Caller');
  return labels;
}

/** The label of a channel: its role on a stereo call, else "Channel N". */
export const labelOf = (labels: Map<number, string>, channel: number): string => labels.get(channel) ?? `Channel ${channel + 1}`;
