// Resources 11-15: the per-line items of a conversation record.
import Type, { type Static } from 'typebox';
import { bool, content, group, ident, int, num, open, opt, uuid } from '../fields.js';

export const Utterance = open(
  {
    ...group(['start', 'end', 'confidence', 'emotionConfidence', 'sentimentConfidence', 'intentConfidence'], num),
    ...group(['text', 'formattedText'], content),
    ...group(['campaignId', 'jobId'], ident),
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
    ...group(['value', 'responseValue'], content),
    ...group(['insightId', 'conversationId', 'campaignId', 'jobId', 'redactionRuleId'], ident),
    ...group(['hasResponse', 'isRedaction'], bool),
  },
  { title: 'insightLine', description: 'Resource 12.' },
);
export type InsightLine = Static<typeof InsightLine>;

export const KeyPhrase = open(
  {
    ...group(['start', 'end', 'score'], num),
    phrase: opt(content()),
    engine: opt(ident()),
    ...group(['speaker', 'sentiment', 'line'], int),
    ...group(['isTopic', 'isIntent'], bool),
    conversationId: opt(uuid()),
  },
  { title: 'keyPhrase', description: 'Resource 13.' },
);
export type KeyPhrase = Static<typeof KeyPhrase>;

export const Entity = open(
  {
    text: opt(content()),
    ...group(['conversationId', 'engine'], ident),
    ...group(['offset', 'length', 'line', 'category', 'subCategory', 'speaker'], int),
    confidence: opt(num()),
    ...group(['redacted', 'isPhi', 'isMedical', 'isPii', 'isPci'], bool),
  },
  { title: 'entity', description: 'Resource 14.' },
);
export type Entity = Static<typeof Entity>;

/** Entity `category` codes (the interface leaves the integer open; README "Conversation intelligence"). */
export const ENTITY_CATEGORY = { personalData: 1, organization: 2, product: 3 } as const;

export const ContentItem = open({
  // A value to redact is masked whole by hideRuleValues; any other value is searched like content.
  value: opt(content()),
  ...group(['typeName', 'contentId', 'id'], ident),
  ...group(['active', 'ignore', 'isDeleted'], bool),
  itemType: opt(int()),
});

export const ContentGroup = open(
  {
    name: opt(content()),
    id: opt(ident()),
    ...group(['active', 'isDeleted'], bool),
    contentItems: opt(Type.Array(ContentItem)),
  },
  { title: 'contentGroup', description: 'Resource 15.' },
);
export type ContentGroup = Static<typeof ContentGroup>;
