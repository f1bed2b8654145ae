// Resource 9: an insight definition (a rule expression evaluated over a conversation).
import type { Static } from 'typebox';
import { bool, content, group, ident, int, open, uuid } from '../fields.js';

export const Insight = open(
  {
    ...group(
      [
        'id', 'background', 'color', 'icon', 'maskCharacter', 'interfaceLanguage', 'redactionTypes',
        'redactionTypesResponse', 'startLocation', 'endLocation',
      ],
      ident,
    ),
    ...group(
      [
        'name', 'label', 'description', 'expression', 'response', 'sampleExpression', 'sampleResponse',
        'interfaceGroup', 'prompt', 'alertMessage',
      ],
      content,
    ),
    ...group(['insightGroupId', 'languagePackId'], uuid),
    ...group(
      [
        'direction', 'channel', 'leg', 'recordType', 'sentiment', 'gender', 'redactionType', 'redactionTypeResponse',
        'sentimentResponse', 'genderResponse', 'searchLinesBefore', 'searchLinesAfter', 'redactBefore', 'redactAfter',
        'redactBeforeResponse', 'redactAfterResponse', 'startOffset', 'endOffset',
      ],
      int,
    ),
    ...group(
      [
        'active', 'expressionValidated', 'responseValidated', 'redactAudio', 'redactText', 'enableResponse',
        'redactInput', 'redactResponse', 'redactLine', 'redactLineResponse', 'redactAudioResponse',
        'redactTextResponse', 'alert', 'enableStartOffset', 'enableEndOffset', 'advanceProcessing',
        'advanceProcessingResponse', 'realTime', 'complianceViolation',
      ],
      bool,
    ),
  },
  { title: 'insight', description: 'Resource 9.' },
);
export type Insight = Static<typeof Insight>;
