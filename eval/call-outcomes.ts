// Issue, outcome and action-item detection (issue 35) against eval/call-outcomes-labelled.txt: customer-service
// turns written and labelled by hand for this project. Each turn is one line of a call (said by its party); the
// detector's kinds for it (none when it finds nothing) are compared with the label. A turn may be given more
// than one kind, so a wrong extra kind costs precision. Precision and recall per class, for the tune half (the
// built-in lexicon may be changed looking at it) and the held-out half (never looked at when changing it), apart.
//
//   node --import tsx eval/call-outcomes.ts
import fs from 'node:fs';
import { detectOutcomes } from '../src/conversation/callOutcomes/detect.js';
import { compileLexicon } from '../src/conversation/callOutcomes/lexicon.js';
import type { Conversation } from '../src/conversation/types.js';

type Label = 'issue' | 'outcome' | 'action' | 'none';
interface Turn {
  half: string;
  label: Label;
  party: 'agent' | 'caller';
  text: string;
}

const CLASSES: Label[] = ['issue', 'outcome', 'action', 'none'];
const file = new URL('./call-outcomes-labelled.txt', import.meta.url);

function turns(): Turn[] {
  let half = '';
  const out: Turn[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const section = /^\[(\w+)\]$/.exec(line.trim());
    if (section) {
      half = section[1];
      continue;
    }
    const [label, party, text] = line.split('\t');
    if (!CLASSES.includes(label as Label) || (party !== 'agent' && party !== 'caller') || !text) throw new Error(`bad line: ${line}`);
    out.push({ half, label: label as Label, party, text });
  }
  return out;
}

/** A turn as a one-line conversation (word times do not matter here). */
function conversationOf(t: Turn): Conversation {
  const words = t.text.split(/\s+/).map((text, i) => ({ text, start: i * 0.4, end: i * 0.4 + 0.4 }));
  return {
    source: 'utterances',
    stereo: true,
    estimatedWordTimes: true,
    utterances: [{ line: 0, channel: t.party === 'agent' ? 0 : 1, speaker: t.party === 'agent' ? 0 : 1, role: t.party, start: 0, end: words.length * 0.4, text: t.text, words }],
  };
}

const lexicon = compileLexicon(undefined);
const all = turns();
const pct = (n: number, d: number) => (d === 0 ? '  n/a ' : `${((n / d) * 100).toFixed(1).padStart(5)}%`);
const verbose = process.argv.includes('--errors');

for (const half of ['tune', 'held']) {
  const set = all.filter((t) => t.half === half);
  const predicted = set.map((t) => {
    const kinds = new Set<Label>(detectOutcomes(conversationOf(t), lexicon).map((d) => d.kind));
    return kinds.size === 0 ? new Set<Label>(['none']) : kinds;
  });
  console.log(`\n${half === 'tune' ? 'tune half' : 'held-out half'}: ${set.length} turns`);
  console.log('class      precision          recall');
  for (const c of CLASSES) {
    const tp = set.filter((t, i) => t.label === c && predicted[i].has(c)).length;
    const said = predicted.filter((p) => p.has(c)).length;
    const gold = set.filter((t) => t.label === c).length;
    console.log(`${c.padEnd(8)} ${pct(tp, said)} (${tp}/${said})   ${pct(tp, gold)} (${tp}/${gold})`);
  }
  const exact = set.filter((t, i) => predicted[i].size === 1 && predicted[i].has(t.label)).length;
  console.log(`turns given exactly their label: ${exact}/${set.length} = ${pct(exact, set.length).trim()}`);
  // Only for the tune half: the held-out half's errors are not listed, so they cannot steer the lexicon.
  if (verbose && half === 'tune') {
    set.forEach((t, i) => {
      if (!(predicted[i].size === 1 && predicted[i].has(t.label))) console.log(`  ${t.label} → ${[...predicted[i]].join('+')}: ${t.text}`);
    });
  }
}
