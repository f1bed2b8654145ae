// Insight definitions (resource 9) checked before anything runs: every active insight's `expression` and
// `response` must parse (expression.ts). A bad one is refused (400) naming the insight, the problem and its
// position; a good one comes back with expressionValidated / responseValidated set.
import { invalid } from '../../errors.js';
import type { FieldIssue } from '../../schema/problem.js';
import type { Insight } from '../../schema/resources/insight.js';
import { EXPRESSION_TERMS, limit, named, RESPONSE_LINES, type WorkLimit } from '../../workLimits.js';
import { ExpressionError, parseExpression, type ExprNode } from './expression.js';

export interface CompiledInsight {
  insight: Insight;
  expression: ExprNode;
  response?: ExprNode;
  /** Where it came from, for messages: 'insights[2]', 'data.insights[0]', ... */
  origin: string;
  /** Its index in the list it came from. */
  index: number;
}

/**
 * Parse the insights at `pointer` (a JSON pointer such as /insights). Inactive insights are skipped (not even
 * parsed: `active: false` switches an insight off), and so is one without an expression. With `most` (what a
 * client sends: a record's insights, a project being published), more active insights than that limit, or an
 * expression of more words than EXPRESSION_TERMS, is refused (400 naming the limit).
 */
export function compileInsights(insights: readonly Insight[] | undefined, pointer: string, most?: WorkLimit): CompiledInsight[] {
  const out: CompiledInsight[] = [];
  const issues: FieldIssue[] = [];
  // What a client sends is bounded (`most` given): so many insights, each of so many words, and no more; every
  // insight runs over every word of every call.
  if (most) {
    const active = (insights ?? []).filter((i) => i.active !== false && typeof i.expression === 'string' && i.expression.trim() !== '').length;
    if (active > limit(most)) {
      const path = pointer.slice(1).replace(/\//g, '.');
      const message = `${active} active insights; ${named(most)}`;
      throw invalid(`Too many insights in ${path}: ${message}.`, [{ pointer, path, message }]);
    }
  }
  (insights ?? []).forEach((insight, i) => {
    if (insight.active === false) return;
    const at = `${pointer}/${i}`;
    const path = `${pointer.slice(1).replace(/\//g, '.')}[${i}]`;
    const parse = (field: 'expression' | 'response'): ExprNode | undefined => {
      const source = insight[field];
      // An insight without an expression (a record's insight metadata) has nothing to run: it is kept, not run.
      if (typeof source !== 'string' || source.trim() === '') return undefined;
      try {
        const tree = parseExpression(source);
        const terms = most ? termCount(tree) : 0;
        if (terms > limit(EXPRESSION_TERMS)) throw new ExpressionError(`${terms} words; an expression holds ${named(EXPRESSION_TERMS)}`, 0);
        return tree;
      } catch (error) {
        if (!(error instanceof ExpressionError)) throw error;
        issues.push({ pointer: `${at}/${field}`, path: `${path}.${field}`, message: `${error.problem} at position ${error.position}`, position: error.position } as FieldIssue);
        return undefined;
      }
    };
    // A response is looked for again around every hit: a window as wide as the call walks its lines times its
    // lines. Refused past the limit, never narrowed (a response not found may be a redaction not made).
    if (most) {
      for (const field of ['searchLinesBefore', 'searchLinesAfter'] as const) {
        const lines = insight[field];
        if (typeof lines === 'number' && lines > limit(RESPONSE_LINES)) {
          issues.push({ pointer: `${at}/${field}`, path: `${path}.${field}`, message: `${lines} lines; a response is looked for ${named(RESPONSE_LINES)} lines away` });
        }
      }
    }
    const expression = parse('expression');
    const response = insight.response !== undefined && insight.enableResponse !== false ? parse('response') : undefined;
    if (expression) out.push({ insight, expression, ...(response && { response }), origin: path, index: i });
  });
  if (issues.length > 0) throw invalid(`An insight cannot be used: ${issues[0].path}: ${issues[0].message}.`, issues);
  return out;
}

/** Words in an expression's phrases (wildcards, * and # each one): what its evaluation grows with. */
export function termCount(node: ExprNode): number {
  switch (node.kind) {
    case 'phrase':
      return node.words.length;
    case 'and':
    case 'or':
    case 'near':
      return termCount(node.left) + termCount(node.right);
    default:
      return termCount(node.operand);
  }
}

/** The insights (the list `compiled` was made from, or a copy of it) with expressionValidated / responseValidated set on those that parsed. */
export function markValidated(insights: readonly Insight[] | undefined, compiled: readonly CompiledInsight[]): Insight[] | undefined {
  if (!insights) return undefined;
  return insights.map((insight, i) => {
    const c = compiled.find((x) => x.index === i);
    if (!c) return insight;
    return { ...insight, expressionValidated: true, ...(c.response && { responseValidated: true }) };
  });
}
