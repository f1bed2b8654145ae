// Resource 1: the conversation event record, the body of POST /system/cache/post-call. It carries every
// other resource of the interface.
import Type, { type Static } from 'typebox';
import { bool, content, dateTime, group, ident, int, key, open, opt } from '../fields.js';
import { Analytics } from './analytics.js';
import { Campaign } from './campaign.js';
import { Conversation } from './conversation.js';
import { ContentGroup, Entity, InsightLine, KeyPhrase, Utterance } from './conversationItems.js';
import { Insight } from './insight.js';
import { ProcessJob } from './processJob.js';
import { RealTimeMessage } from './realTimeMessage.js';
import { RedactionType } from './redactionType.js';
import { JobRequest } from './request.js';
import { SystemSettings } from './systemSettings.js';
import { VendorATranscript, VendorBTranscript } from './vendorTranscripts.js';

export const EventRecord = open(
  {
    ...group(['eventId', 'jobId', 'conversationId'], key),
    ...group(['type', 'subType', 'status'], ident),
    // `json` is JSON text: its own strings are searched (see redact/recordWalk.ts).
    ...group(['message', 'details', 'json', 'custom0', 'custom1', 'custom2', 'custom3', 'custom4'], content),
    ...group(['segmentsCreated', 'insightsCreated'], int),
    ...group(['createdAt', 'completedAt', 'timestamp'], dateTime),
    ...group(['vendorB', 'flag0', 'flag1', 'flag3', 'flag4', 'flag5', 'isProduction', 'maskValues'], bool),
    campaign: opt(Campaign),
    vendorATranscript: opt(VendorATranscript),
    vendorBTranscript: opt(VendorBTranscript),
    realTimeMessage: opt(RealTimeMessage),
    processJob: opt(ProcessJob),
    systemSettings: opt(SystemSettings),
    redactionRequest: opt(JobRequest),
    conversation: opt(Conversation),
    analytics: opt(Analytics),
    job: opt(open({ jobId: opt(key()) })),
    insights: opt(Type.Array(Insight)),
    redactionTypes: opt(Type.Array(RedactionType)),
    utterances: opt(Type.Array(Utterance)),
    insightLines: opt(Type.Array(InsightLine)),
    keyPhrases: opt(Type.Array(KeyPhrase)),
    entities: opt(Type.Array(Entity)),
    contentGroups: opt(Type.Array(ContentGroup)),
  },
  { title: 'eventRecord', description: 'Resource 1: the conversation event record with all of its nested resources.' },
);
export type EventRecord = Static<typeof EventRecord>;
