// The transcript as the call view shows it: the json-v2 shape's words grouped into turns (one speaker, no pause
// longer than TURN_GAP), each word marked with the redacted span it lies in (kind, mask, time: never a value).
export interface RedactedSpan {
  channel: number;
  kind: string;
  start: number;
  end: number;
}

export interface Word {
  text: string;
  start: number;
  end: number;
  channel: number;
  span?: RedactedSpan;
}

export interface Turn {
  channel: number;
  speaker: string;
  start: number;
  words: Word[];
}

interface ResultItem {
  type: string;
  start_time: number;
  end_time: number;
  channel?: string;
  alternatives?: { content: string; speaker?: string }[];
}

const TURN_GAP = 1.5;

export function turnsOf(results: ResultItem[] | undefined, spans: RedactedSpan[]): Turn[] {
  const turns: Turn[] = [];
  const items = [...(results ?? [])].sort((a, b) => a.start_time - b.start_time);
  const open = new Map<number, Turn>();
  for (const item of items) {
    const text = item.alternatives?.[0]?.content ?? '';
    const channel = Math.max(0, Number(/(\d+)$/.exec(item.channel ?? '')?.[1] ?? 1) - 1);
    if (item.type === 'punctuation') {
      const turn = open.get(channel);
      const last = turn?.words.at(-1);
      if (last) last.text += text;
      continue;
    }
    const middle = (item.start_time + item.end_time) / 2;
    const span = spans.find((s) => s.channel === channel && middle >= s.start && middle <= s.end);
    const word: Word = { text, start: item.start_time, end: item.end_time, channel, span };
    let turn = open.get(channel);
    const lastEnd = turn?.words.at(-1)?.end ?? -Infinity;
    if (!turn || turns.at(-1) !== turn || item.start_time - lastEnd > TURN_GAP) {
      turn = { channel, speaker: item.alternatives?.[0]?.speaker ?? `S${channel + 1}`, start: item.start_time, words: [] };
      turns.push(turn);
      open.set(channel, turn);
    }
    turn.words.push(word);
  }
  return turns;
}
