// Resource 10: a redaction type with its rules.
import Type, { type Static } from 'typebox';
import { bool, content, group, ident, num, open, opt } from '../fields.js';

export const RedactionRule = open({
  // A literal value is masked whole by hideRuleValues; any other value (a pattern) is searched like content.
  value: opt(content()),
  ...group(['type', 'typeId', 'maskType', 'setting', 'contentId', 'language', 'id'], ident),
  ...group(['active', 'redactLine', 'isDeleted'], bool),
  ...group(['confidence', 'redactBefore', 'redactAfter'], num),
});

export const RedactionType = open(
  {
    name: opt(content()),
    ...group(['category', 'id'], ident),
    ...group(['active', 'isDeleted'], bool),
    rules: opt(Type.Array(RedactionRule)),
  },
  { title: 'redactionType', description: 'Resource 10.' },
);
export type RedactionType = Static<typeof RedactionType>;
