// compromise grows worse than linearly with text length: long text goes through it in overlapping windows. Each
// window ends at a space when one is near (no word cut) and every search stays inside its window (linear overall);
// a match is kept once, by where it starts in the whole text.
import nlp from 'compromise';

const WINDOW = 2000;
const OVERLAP = 200;

export interface Match {
  text: string;
  offset: { start: number; length: number };
}

type View = ReturnType<typeof nlp>;
/** What a pick returns: any view with json(). */
type Found = { json(options: { offset: boolean }): unknown };

/** What `pick` finds in each window (people(), organizations(), ...), offsets into the whole text. */
export function matchesIn(text: string, pick: (doc: View) => Found): Match[] {
  const found = new Map<number, Match>();
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + WINDOW);
    if (end < text.length) {
      const space = text.slice(start, end).lastIndexOf(' ');
      if (space > 0) end = start + space;
    }
    const matches = pick(nlp(text.slice(start, end))).json({ offset: true }) as Match[];
    for (const p of matches) {
      if (!p.offset) continue;
      const at = start + p.offset.start;
      if (!found.has(at)) found.set(at, { text: p.text, offset: { start: at, length: p.offset.length } });
    }
    if (end >= text.length) break;
    // The next window starts OVERLAP back, after a space when there is one.
    const back = Math.max(start + 1, end - OVERLAP);
    const space = text.slice(back, end).indexOf(' ');
    start = space >= 0 ? back + space + 1 : end;
  }
  return [...found.values()];
}
