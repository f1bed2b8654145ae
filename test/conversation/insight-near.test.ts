// NEAR and wildcards decided without a pass over pairs (evaluate.ts): the same hits as the definition — every
// hit of either side with a hit of the other side at most n words away (either order, across utterances) —
// checked pair by pair here, over random calls and expressions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluate, type Hit, MatchIndex } from '../../src/conversation/insights/evaluate.js';
import { parseExpression } from '../../src/conversation/insights/expression.js';
import { conversationOfRecord } from '../../src/conversation/normalize.js';
import type { EventRecord } from '../../src/schema/resources/eventRecord.js';

function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['pay', 'payment', 'card', 'cards', 'account', 'help', 'five', 'order', 'colour', 'color'];
const TERMS = ['pay*', 'card', '*s', 'colo?r', '#', '*', 'account', 'help order', 'pay* card'];

/** The definition, pair by pair. */
function pairwise(index: MatchIndex, a: Hit[], b: Hit[], distance: number): Set<string> {
  const at = (h: Hit) => ({ s: index.lines[h.line].offset + h.from, e: index.lines[h.line].offset + h.to });
  const out = new Set<string>();
  for (const x of a) {
    for (const y of b) {
      const p = at(x);
      const q = at(y);
      const gap = q.s >= p.e ? q.s - p.e : p.s >= q.e ? p.s - q.e : 0;
      if (gap <= distance) {
        out.add(`${x.line}:${x.from}:${x.to}`);
        out.add(`${y.line}:${y.from}:${y.to}`);
      }
    }
  }
  return out;
}

test('NEAR answers the hits the pairwise definition gives, over random calls and expressions', () => {
  const rand = random(36);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  for (let round = 0; round < 200; round++) {
    const lines = Array.from({ length: 1 + Math.floor(rand() * 6) }, (_, i) => ({
      speaker: i % 2,
      text: Array.from({ length: 1 + Math.floor(rand() * 10) }, () => pick(WORDS)).join(' '),
    }));
    const index = new MatchIndex(conversationOfRecord({ eventId: 'r', utterances: lines } as EventRecord)!);
    const left = pick(TERMS);
    const right = pick(TERMS);
    const distance = Math.floor(rand() * 8);
    const l = evaluate(parseExpression(left), index);
    const r = evaluate(parseExpression(right), index);
    const expected = pairwise(index, l.hits, r.hits, distance);
    const got = evaluate(parseExpression(`(${left}) NEAR/${distance} (${right})`), index);
    const keys = new Set(got.hits.map((h) => `${h.line}:${h.from}:${h.to}`));
    assert.deepEqual([...keys].sort(), [...expected].sort(), `${left} NEAR/${distance} ${right} over ${JSON.stringify(lines)}`);
    assert.equal(got.matched, expected.size > 0);
  }
});
