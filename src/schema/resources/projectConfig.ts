// Resource 19: a project configuration, published through POST /system/cache/v2/publish.
import Type, { type Static } from 'typebox';
import { bool, content, ident, key, open, opt } from '../fields.js';

/** Mask types: the interface shows Placeholder; DESIGN.md adds the others. */
export const MASK_TYPES = ['Placeholder', 'MaskCharacter', 'EntityIndex', 'Hash', 'Remove'] as const;
export type MaskType = (typeof MASK_TYPES)[number];

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
  },
  { title: 'projectConfig', description: 'Resource 19.' },
);
export type ProjectConfig = Static<typeof ProjectConfig>;
