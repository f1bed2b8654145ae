// Resource 19: a project configuration, published through POST /system/cache/v2/publish.
import Type, { type Static } from 'typebox';
import { bool, content, ident, key, open, opt } from '../fields.js';

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
  },
  { title: 'projectConfig', description: 'Resource 19.' },
);
export type ProjectConfig = Static<typeof ProjectConfig>;
