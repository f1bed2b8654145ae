// Resource 19: a project configuration, published through POST /system/cache/v2/publish.
import Type, { type Static } from 'typebox';
import { ENTITY_KINDS } from '../../redact/entityKinds.js';
import { bool, content, group, ident, key, open, opt } from '../fields.js';
import { Insight } from './insight.js';

/** Mask types: the interface shows Placeholder; DESIGN.md adds the others. */
export const MASK_TYPES = ['Placeholder', 'MaskCharacter', 'EntityIndex', 'Hash', 'Remove'] as const;
export type MaskType = (typeof MASK_TYPES)[number];

/** How much of the caller channel sensitive windows redact (redact/windows/modes.ts). */
export const WINDOW_MODES = ['windows', 'payment-segment', 'agent-only'] as const;
export type WindowMode = (typeof WINDOW_MODES)[number];

export const ProjectRule = open({
  name: ident({ minLength: 1, description: 'Entity kind to redact, e.g. Person, Address, USSocialSecurityNumber.' }),
  active: opt(bool()),
  mask_type: opt(Type.Enum([...MASK_TYPES], { description: 'How a match is masked; Placeholder when absent.' })),
  setting: opt(ident()),
  real_time: opt(bool()),
});
export type ProjectRule = Static<typeof ProjectRule>;

/** Per entity kind, closed: a misspelt kind is refused rather than silently matching nothing. */
const perKind = <S extends Parameters<typeof Type.Array>[0]>(make: () => S, description: string) =>
  Type.Object(group(ENTITY_KINDS, make), { additionalProperties: false, description });
const phraseList = () =>
  Type.Array(ident({ minLength: 1, maxLength: 200 }), { maxItems: 200, description: 'Cue phrases, added to the defaults.' });

/** Cue windows (issue 17): spoken cues that open a sensitive window whatever the recognizer made of the value. */
export const CueWindowsConfig = Type.Object(
  {
    enabled: opt(bool()),
    phrases: opt(perKind(phraseList, "Requests per kind (\"can I have the card number\"): open a window on the other party's following speech.")),
    leadIns: opt(perKind(phraseList, "Lead-ins per kind (\"my card number is\"): open a window on the same speaker's following speech.")),
    maxSeconds: opt(
      Type.Object(group(ENTITY_KINDS, () => Type.Number({ minimum: 1, maximum: 600 })), {
        additionalProperties: false,
        description: 'The longest a window stays open after its cue, in seconds, per kind.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Cue windows: phrases added to the defaults and window bounds per kind. Off unless enabled is true.',
  },
);
export type CueWindowsConfig = Static<typeof CueWindowsConfig>;

export const ProjectConfig = open(
  {
    sid: key({ minLength: 1, description: 'Project identifier.' }),
    name: opt(content()),
    active: opt(bool()),
    agent_location: opt(ident()),
    inbound: opt(bool()),
    scrubaudio: opt(bool()),
    scrubtext: opt(bool()),
    /** With scrubaudio: keep each job's original recording beside its redacted copy (served to admin keys only). */
    keepOriginal: opt(bool()),
    rules: opt(Type.Array(ProjectRule)),
    /**
     * How sensitive windows (cue, number, mark, keypad) redact the recording: `windows` (default) each window on its
     * own channel; `payment-segment` also the caller's channel from the first window to the last; `agent-only` the
     * caller's channel whole (audio silenced, words masked).
     */
    windowMode: opt(Type.Enum([...WINDOW_MODES], { description: 'windows (default) | payment-segment | agent-only: how much of the caller channel sensitive windows redact.' })),
    cueWindows: opt(CueWindowsConfig),
    /** Insights (resource 9) evaluated on every call of the project, with the record's own and a job's (issue 18). */
    insights: opt(Type.Array(Insight, { maxItems: 500, description: 'Insights run on every call of the project; each expression must parse (README "Insight expressions").' })),
    /** Products the project sells, listed among a call's entities when said (conversation/products.ts). */
    products: opt(
      Type.Array(
        Type.Object(
          {
            name: ident({ minLength: 1, maxLength: 100, description: 'The product as it is listed.' }),
            aliases: opt(Type.Array(ident({ minLength: 1, maxLength: 100 }), { maxItems: 20, description: 'Other ways callers say it ("gold card", "i phone fifteen").' })),
          },
          { additionalProperties: false },
        ),
        { maxItems: 2000, description: "Products found in a call's text (case, punctuation, accents and word splits ignored) and listed among its entities: engine catalogue, category 3, subCategory the product's place in this list (1-based)." },
      ),
    ),
    /** Phrases that mark issues, outcomes and action items in a call (conversation/callOutcomes/lexicon.ts, issue 35). */
    callOutcomes: opt(
      Type.Object(
        {
          ...group(['issues', 'outcomes', 'actionItems'], () =>
            Type.Array(ident({ minLength: 1, maxLength: 200 }), { maxItems: 200, description: 'Phrases (words in order within a sentence; "*" any one word, "word*" a prefix), added to the built-in ones.' }),
          ),
          builtIn: opt(Type.Boolean({ description: 'false: the phrases given for a kind replace the built-in ones of that kind.' })),
        },
        { additionalProperties: false, description: "Extends the lexicon of issue / outcome / action-item detection (analytics.issues, outcomes, action_items, summary); each phrase must parse, else the publish is refused naming it." },
      ),
    ),
    /** Days a job's data (and a live stream's kept transcript) stays after it ends: the shorter of this and the request's. */
    retentionPolicy: opt(Type.Integer({ minimum: 0, maximum: 36_500, description: "Days the project's jobs (audio, transcript, record) and live streams' kept transcripts are kept after they end; a request may ask for fewer, never more. 0 or absent: kept until deleted." })),
    /** A live conversation with no message for this long (seconds) has ended: post-call analysis runs on it. */
    conversationIdleSeconds: opt(Type.Number({ minimum: 5, maximum: 86400, description: 'Seconds without a real-time message after which a live conversation ends (default 300).' })),
  },
  { title: 'projectConfig', description: 'Resource 19.' },
);
export type ProjectConfig = Static<typeof ProjectConfig>;
