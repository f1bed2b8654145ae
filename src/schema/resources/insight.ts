// Resource 9: an insight definition (a rule expression evaluated over a conversation).
import type { Static } from 'typebox';
import { bool, group, int, open, str, uuid } from '../fields.js';

export const Insight = open(
  {
    ...group(
      [
        'id', 'name', 'label', 'description', 'expression', 'response', 'sampleExpression', 'sampleResponse',
        'background', 'color', 'icon', 'maskCharacter', 'interfaceGroup', 'interfaceLanguage', 'redactionTypes',
        'redactionTypesResponse', 'prompt', 'alertMessage', 'startLocation', 'endLocation',
      ],
      str,
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
