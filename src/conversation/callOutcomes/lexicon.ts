// The phrases that mark a call's issues, outcomes and action items (issue 35): a built-in lexicon for
// contact-center English, which a project extends (or replaces) with its own in its configuration
// (`callOutcomes`). A phrase is words in order within one sentence of one turn, on lower-case text with
// apostrophes dropped ("can't" = "cant", "I'll" = "ill"); `*` alone is any one word (a mask such as [PERSON]
// included), `word*` any word starting so. Pure.
import { invalid } from '../../errors.js';
import type { FieldIssue } from '../../schema/problem.js';

export type OutcomeKind = 'issue' | 'outcome' | 'action';

export const OUTCOME_KINDS: readonly OutcomeKind[] = ['issue', 'outcome', 'action'];

/** What a project configuration may carry (`callOutcomes`). */
export interface CallOutcomesConfig {
  issues?: readonly string[];
  outcomes?: readonly string[];
  actionItems?: readonly string[];
  /** false: the project's phrases replace the built-in ones of each kind it lists. */
  builtIn?: boolean;
}

/** Bounds on what a project adds: a phrase is short, a list is not a corpus. */
export const MAX_PHRASES_PER_KIND = 200;
export const MAX_PHRASE_WORDS = 12;

/** One word of a phrase: exact, a prefix (`refund*`), or any word (`*`). */
export type PhraseWord = { exact: string } | { prefix: string } | { any: true };

export interface CompiledPhrase {
  kind: OutcomeKind;
  phrase: string;
  words: PhraseWord[];
}

// The caller's problem, stated as one.
const ISSUES = [
  'charged twice', 'charged me twice', 'went out twice', 'came out twice', 'taken twice', 'paid twice', 'charged two times', 'double charged', 'charged double', 'billed twice',
  'overcharged', 'over charged', 'charged me for', 'extra charge', 'unauthorized charge', 'unauthorised charge',
  'dont recognize', 'dont recognise', 'do not recognize', 'wrong amount', 'wrong item', 'wrong order', 'wrong size',
  'cant log in', 'cant login', 'cannot log in', 'can not log in', 'unable to log in', 'cant sign in', 'cannot sign in',
  'cant get in', 'cant access', 'cannot access', 'unable to access', 'locked out', 'forgot my password',
  'doesnt work', 'does not work', 'isnt working', 'is not working', 'not working', 'stopped working', 'wont work',
  'wont turn on', 'wont start', 'wont load', 'keeps crashing', 'keeps freezing', 'keeps dropping', 'keeps cutting out',
  'never arrived', 'never came', 'never received', 'never got', 'hasnt arrived', 'has not arrived', 'didnt arrive',
  'did not arrive', 'didnt receive', 'did not receive', 'havent received', 'have not received', 'still havent',
  'still not', 'still waiting', 'arrived broken', 'arrived damaged', 'came broken', 'is broken', 'was broken',
  'was declined', 'got declined', 'keeps getting declined', 'keeps declining', 'being declined',
  'problem with', 'issue with', 'trouble with', 'having trouble', 'having problems', 'having issues',
  'no internet', 'no signal', 'no service', 'internet is down', 'internet keeps', 'been cut off',
  'want to complain', 'make a complaint', 'file a complaint', 'not happy', 'disappointed with',
  'was never', 'missing from', 'is missing', 'are missing', 'lost my card', 'lost my * card', 'card was stolen', 'been stolen',
  'error message', 'getting an error', 'says error',
];

// What the agent did about it, done (said in the past or present perfect).
const OUTCOMES = [
  'ive refunded', 'i have refunded', 'refund has been', 'refund is on its way', 'ive issued a refund', 'issued a refund',
  'processed a refund', 'processed the refund', 'been refunded',
  'been resolved', 'is resolved', 'now resolved', 'ive resolved', 'i have resolved',
  'been fixed', 'is fixed', 'ive fixed', 'i have fixed', 'fixed it', 'fixed that',
  'should be working now', 'should work now', 'working now', 'works now', 'is back up',
  'ive blocked', 'i have blocked', 'been blocked', 'ive reset', 'i have reset', 'been reset', 'ive unlocked', 'i have unlocked', 'been unlocked',
  'ive cancelled', 'ive canceled', 'i have cancelled', 'i have canceled', 'been cancelled', 'been canceled',
  'ive credited', 'i have credited', 'been credited', 'applied a credit', 'ive applied', 'been applied',
  'ive reversed', 'i have reversed', 'been reversed', 'ive removed', 'i have removed', 'been removed',
  'ive waived', 'i have waived', 'been waived', 'ive updated', 'i have updated', 'been updated',
  'ive changed', 'i have changed', 'been changed', 'ive replaced', 'been replaced', 'ive activated', 'been activated',
  'ive processed', 'been processed', 'ive added', 'been added', 'ive corrected', 'been corrected',
  'all sorted', 'sorted that', 'sorted it', 'sorted out', 'taken care of', 'all set', 'went through',
  'ive sent', 'i have sent', 'just sent', 'ive booked', 'been booked', 'ive approved', 'been approved',
];

// What someone will do after the call: a commitment, or what the customer must do.
const ACTIONS = [
  'ill send', 'i will send', 'well send', 'we will send', 'ill email', 'i will email', 'ill text', 'ill mail',
  'ill post', 'well post', 'well mail', 'we will mail',
  'you will receive', 'youll receive', 'you should receive', 'you will get', 'youll get', 'you should get',
  'you will see', 'youll see', 'you should see', 'expect a', 'expect an', 'expect to',
  'call you back', 'call back', 'ring you back', 'ill call', 'i will call', 'well call', 'we will call',
  'follow up', 'ill follow', 'get back to you', 'ill get back', 'be in touch', 'will contact you', 'will reach out',
  'ill escalate', 'i will escalate', 'be escalated', 'ill raise', 'ill arrange', 'well arrange', 'ill schedule',
  'ill book', 'well book', 'technician will', 'engineer will', 'someone will', 'courier will', 'will be sent',
  'will be delivered', 'will arrive', 'will be credited', 'will be refunded', 'will be back',
  'within * days', 'within * business days', 'within * working days', 'within * hours', 'in * to * days',
  'in * to * business days', 'in * to * working days', 'ill make sure', 'ill look into', 'ill check with',
  'please send', 'please call', 'please reply', 'you need to', 'youll need to', 'you will need to', 'please bring',
  'ill put a note', 'ill leave a note', 'ill have',
];

const BUILT_IN: Record<OutcomeKind, readonly string[]> = { issue: ISSUES, outcome: OUTCOMES, action: ACTIONS };

/** Lower case, accents and apostrophes dropped: how text and phrases are compared. */
export const foldWord = (word: string): string =>
  word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/['’‘`]/g, '');

/** The words of a phrase as matchers, or why it is not one. */
export function parsePhrase(phrase: string): PhraseWord[] | string {
  const raw = phrase.trim().split(/\s+/).filter(Boolean);
  if (raw.length === 0) return 'is empty';
  if (raw.length > MAX_PHRASE_WORDS) return `has ${raw.length} words; a phrase holds at most ${MAX_PHRASE_WORDS}`;
  const words: PhraseWord[] = [];
  for (const w of raw) {
    if (w === '*') {
      words.push({ any: true });
      continue;
    }
    const star = w.endsWith('*');
    const folded = foldWord(star ? w.slice(0, -1) : w);
    if (!/^[\p{L}\p{N}]+$/u.test(folded)) return `word "${w}" must be letters or digits (with an apostrophe), "*", or end in "*"`;
    words.push(star ? { prefix: folded } : { exact: folded });
  }
  if (words.every((w) => 'any' in w)) return 'needs at least one word that is not "*"';
  if ('any' in words[0] || 'any' in words[words.length - 1]) return 'may not start or end with "*"';
  return words;
}

const FIELD: Record<OutcomeKind, 'issues' | 'outcomes' | 'actionItems'> = { issue: 'issues', outcome: 'outcomes', action: 'actionItems' };

/**
 * The lexicon a call is read with: the built-in phrases and the project's (`pointer` names where the project's
 * stand, for the 400 a bad phrase gets).
 */
export function compileLexicon(config: CallOutcomesConfig | undefined, pointer = '/callOutcomes'): CompiledPhrase[] {
  const out: CompiledPhrase[] = [];
  const issues: FieldIssue[] = [];
  for (const kind of OUTCOME_KINDS) {
    const own = config?.[FIELD[kind]] ?? [];
    if (own.length > MAX_PHRASES_PER_KIND) {
      issues.push({ pointer: `${pointer}/${FIELD[kind]}`, path: `${pointer.slice(1).replace(/\//g, '.')}.${FIELD[kind]}`, message: `${own.length} phrases; at most ${MAX_PHRASES_PER_KIND}` });
      continue;
    }
    // The project's phrases first: a sentence reports the first phrase of a kind it holds, and the project's own
    // say more about its calls than the built-in ones.
    own.forEach((phrase, i) => {
      const words = parsePhrase(phrase);
      if (typeof words === 'string') {
        issues.push({ pointer: `${pointer}/${FIELD[kind]}/${i}`, path: `${pointer.slice(1).replace(/\//g, '.')}.${FIELD[kind]}[${i}]`, message: `phrase "${phrase}" ${words}` });
      } else out.push({ kind, phrase, words });
    });
    const builtIn = config?.builtIn === false && own.length > 0 ? [] : BUILT_IN[kind];
    for (const phrase of builtIn) out.push({ kind, phrase, words: parsePhrase(phrase) as PhraseWord[] });
  }
  if (issues.length > 0) throw invalid(`callOutcomes: ${issues.map((i) => i.message).join('; ')}.`, issues);
  return out;
}
