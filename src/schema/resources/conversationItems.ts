// Resources 11-15: the per-line items of a conversation record.
import Type, { type Static } from 'typebox';
import { bool, group, int, num, open, opt, str, uuid } from '../fields.js';

export const Utterance = open(
  {
    ...group(['start', 'end', 'confidence', 'emotionConfidence', 'sentimentConfidence', 'intentConfidence'], num),
    ...group(['text', 'formattedText', 'campaignId', 'jobId'], str),
    ...group(['intent', 'speaker', 'sentiment', 'gender', 'row', 'channel'], int),
    ...group(['conversationId', 'agentId'], uuid),
  },
  { title: 'utterance', description: 'Resource 11.' },
);
export type Utterance = Static<typeof Utterance>;

export const InsightLine = open(
  {
    timestamp: opt(num()),
    ...group(['speaker', 'line', 'responseLine'], int),
    ...group(['value', 'responseValue', 'insightId', 'conversationId', 'campaignId', 'jobId', 'redactionRuleId'], str),
    ...group(['hasResponse', 'isRedaction'], bool),
  },
  { title: 'insightLine', description: 'Resource 12.' },
);
export type InsightLine = Static<typeof InsightLine>;

export const KeyPhrase = open(
  {
    ...group(['start', 'end', 'score'], num),
    ...group(['phrase', 'engine'], str),
    ...group(['speaker', 'sentiment'], int),
    ...group(['isTopic', 'isIntent'], bool),
    conversationId: opt(uuid()),
  },
  { title: 'keyPhrase', description: 'Resource 13.' },
);
export type KeyPhrase = Static<typeof KeyPhrase>;

export const Entity = open(
  {
    ...group(['text', 'conversationId', 'engine'], str),
    ...group(['offset', 'length', 'line', 'category', 'subCategory', 'speaker'], int),
    confidence: opt(num()),
    ...group(['redacted', 'isPhi', 'isMedical', 'isPii', 'isPci'], bool),
  },
  { title: 'entity', description: 'Resource 14.' },
);
export type Entity = Static<typeof Entity>;

export const ContentItem = open({
  ...group(['value', 'typeName', 'contentId', 'id'], str),
  ...group(['active', 'ignore', 'isDeleted'], bool),
  itemType: opt(int()),
});

export const ContentGroup = open(
  {
    ...group(['name', 'id'], str),
    ...group(['active', 'isDeleted'], bool),
    contentItems: opt(Type.Array(ContentItem)),
  },
  { title: 'contentGroup', description: 'Resource 15.' },
);
export type ContentGroup = Static<typeof ContentGroup>;
