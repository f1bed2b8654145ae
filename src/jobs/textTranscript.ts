// A text transcript (JSON requests) as the internal Transcript: one utterance per line; "Agent:" or
// "Caller:" prefixes choose the channel. Text has no timing, so words get estimated times (flagged).
import type { Transcript, Word } from '../transcript/types.js';

const SECONDS_PER_WORD = 0.35;
const GAP_BETWEEN_LINES = 1.0;

export function textToTranscript(text: string, model = 'text:input', agentChannel = 0): Transcript {
  const channels = new Map<number, { words: Word[]; segments: { start: number; end: number }[] }>();
  let clock = 0;
  for (const rawLine of text.split(/\r?\n/)) {
    const prefixed = /^\s*(agent|caller|customer|speaker\s*(\d+))\s*:\s*(.*)$/i.exec(rawLine);
    const line = prefixed ? prefixed[3] : rawLine;
    let channel = agentChannel;
    if (prefixed) {
      const who = prefixed[1].toLowerCase();
      if (prefixed[2] !== undefined) channel = Number(prefixed[2]) - 1 >= 0 ? Number(prefixed[2]) - 1 : 0;
      else channel = who === 'agent' ? agentChannel : 1 - agentChannel;
    }
    const tokens = line.split(/\s+/).filter(Boolean);
    if (tokens.length === 0) continue;
    const entry = channels.get(channel) ?? { words: [], segments: [] };
    const start = clock;
    for (const token of tokens) {
      entry.words.push({ word: token, start: clock, end: clock + SECONDS_PER_WORD * 0.9, confidence: 1 });
      clock += SECONDS_PER_WORD;
    }
    entry.segments.push({ start, end: clock });
    channels.set(channel, entry);
    clock += GAP_BETWEEN_LINES;
  }
  const count = Math.max(1, ...[...channels.keys()].map((c) => c + 1));
  return {
    model,
    engine: 'text',
    language: 'en-us',
    audioSeconds: clock,
    sourceSampleRate: 0,
    processingSeconds: 0,
    estimatedTimes: true,
    channels: Array.from({ length: count }, (_, channel) => ({ channel, words: channels.get(channel)?.words ?? [], segments: channels.get(channel)?.segments ?? [] })),
  };
}
