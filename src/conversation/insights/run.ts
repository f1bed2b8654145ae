// Compiled insights (definitions.ts) run over a conversation: which apply to this call (active, direction, leg),
// where each was said (its channel/side, its start/end offsets), the other side's response within
// searchLinesBefore/After, compliance violations (complianceViolation: must be said, was not), alerts, and the
// redactions its flags ask for (applied by the redaction core, see enrich.ts). Pure.
import type { Conversation } from '../types.js';
import type { CompiledInsight } from './definitions.js';
import { distinctHits, evaluate, type Hit, MatchIndex, type Scope } from './evaluate.js';

export interface InsightRedaction {
  /** The words to mask (as the conversation has them) and where they were said. */
  phrase: string;
  line: number;
  channel: number;
  start: number;
  end: number;
  redactLine: boolean;
  before: number;
  after: number;
  text: boolean;
  audio: boolean;
  maskCharacter?: string;
}

export interface InsightLineResult {
  hit: Hit;
  response?: Hit;
}

export interface InsightResult {
  compiled: CompiledInsight;
  /** False when direction or leg rule it out for this call. */
  applies: boolean;
  matched: boolean;
  violation: boolean;
  lines: InsightLineResult[];
  redactions: InsightRedaction[];
  alert: boolean;
}

export interface CallContext {
  /** 'inbound' | 'outbound' when known. */
  direction?: string;
  /** This call's leg (1 unless told). */
  leg?: number;
}

/** Insight `direction`: 0 (or absent) any call, 1 inbound only, 2 outbound only. */
function directionApplies(wanted: number | undefined, call: string | undefined): boolean {
  if (!wanted) return true;
  const c = call?.trim().toLowerCase();
  const code = c === 'inbound' || c === 'in' || c === '1' ? 1 : c === 'outbound' || c === 'out' || c === '2' ? 2 : undefined;
  return code === wanted;
}

const DEFAULT_LINES_AFTER = 1;

export function runInsights(compiled: readonly CompiledInsight[], conversation: Conversation, call: CallContext = {}, index = new MatchIndex(conversation)): InsightResult[] {
  const duration = index.duration;
  return compiled.map((c) => {
    const ins = c.insight;
    const applies = directionApplies(ins.direction, call.direction) && (!ins.leg || ins.leg === (call.leg ?? 1));
    const empty: InsightResult = { compiled: c, applies, matched: false, violation: false, lines: [], redactions: [], alert: false };
    if (!applies) return empty;

    const scope: Scope = {};
    // channel: the side that must say it — 0 agent, 1 caller (speaker integers); on mono the engine's speaker.
    if (typeof ins.channel === 'number' && ins.channel >= 0) {
      const channel = ins.channel;
      scope.speaker = (u) => (u.role ? (channel === 0 ? u.role === 'agent' : u.role === 'caller') : u.speaker === channel);
    }
    const anchored = (offset: number, location: string | undefined) => (location?.toLowerCase() === 'end' ? duration - offset : offset);
    if (ins.enableStartOffset && typeof ins.startOffset === 'number') scope.from = anchored(ins.startOffset, ins.startLocation);
    if (ins.enableEndOffset && typeof ins.endOffset === 'number') scope.to = anchored(ins.endOffset, ins.endLocation);

    const outcome = evaluate(c.expression, index, scope);
    const hits = outcome.matched ? distinctHits(outcome.hits) : [];
    const byLine = new Map<number, Hit>();
    for (const h of hits) if (!byLine.has(h.line)) byLine.set(h.line, h);

    const lines: InsightLineResult[] = [];
    for (const hit of byLine.values()) {
      let response: Hit | undefined;
      if (c.response) {
        // No further than the conversation goes: a window of a billion lines is walked as the lines there are.
        // (What a client sends is bounded before: definitions.ts, RESPONSE_LINES.)
        const most = conversation.utterances.length;
        const before = Math.min(most, Math.max(0, ins.searchLinesBefore ?? 0));
        const after = Math.min(most, Math.max(0, ins.searchLinesAfter ?? (ins.searchLinesBefore === undefined ? DEFAULT_LINES_AFTER : 0)));
        const allowed = new Set<number>();
        for (let l = hit.line - before; l <= hit.line + after; l++) {
          const u = conversation.utterances[l];
          if (u && l !== hit.line && u.speaker !== hit.speaker) allowed.add(l);
        }
        const r = allowed.size > 0 ? evaluate(c.response, index, { lines: allowed }) : { matched: false, hits: [] };
        response = r.matched ? distinctHits(r.hits)[0] : undefined;
      }
      lines.push({ hit, ...(response && { response }) });
    }

    const redactions: InsightRedaction[] = [];
    const mask = (hit: Hit, kind: 'main' | 'response') => {
      const line = kind === 'main' ? !!ins.redactLine : !!ins.redactLineResponse;
      const before = (kind === 'main' ? ins.redactBefore : ins.redactBeforeResponse) ?? 0;
      const after = (kind === 'main' ? ins.redactAfter : ins.redactAfterResponse) ?? 0;
      const text = kind === 'main' ? !!ins.redactText : !!ins.redactTextResponse;
      const audio = kind === 'main' ? !!ins.redactAudio : !!ins.redactAudioResponse;
      if (!line && !text && !audio && before <= 0 && after <= 0) return;
      const u = conversation.utterances[hit.line];
      redactions.push({
        phrase: hit.text,
        line: hit.line,
        channel: u.channel,
        // Audio: the whole line when the line is redacted, else the words.
        start: line ? u.start : hit.start,
        end: line ? u.end : hit.end,
        redactLine: line,
        before: Math.max(0, before),
        after: Math.max(0, after),
        text: text || line || before > 0 || after > 0,
        audio,
        ...(ins.maskCharacter && { maskCharacter: ins.maskCharacter }),
      });
    };
    for (const l of lines) {
      mask(l.hit, 'main');
      if (l.response) mask(l.response, 'response');
    }
    const matched = outcome.matched;
    return { compiled: c, applies, matched, violation: !!ins.complianceViolation && !matched, lines, redactions, alert: matched && !!ins.alert };
  });
}
