// Resource 10: a redaction type with its rules.
import Type, { type Static } from 'typebox';
import { bool, group, num, open, opt, str } from '../fields.js';

export const RedactionRule = open({
  ...group(['value', 'type', 'typeId', 'maskType', 'setting', 'contentId', 'language', 'id'], str),
  ...group(['active', 'redactLine', 'isDeleted'], bool),
  ...group(['confidence', 'redactBefore', 'redactAfter'], num),
});

export const RedactionType = open(
  {
    ...group(['name', 'category', 'id'], str),
    ...group(['active', 'isDeleted'], bool),
    rules: opt(Type.Array(RedactionRule)),
  },
  { title: 'redactionType', description: 'Resource 10.' },
);
export type RedactionType = Static<typeof RedactionType>;
