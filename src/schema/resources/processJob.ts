// Resource 6: a job record.
import type { Static } from 'typebox';
import { bool, content, credential, dateTime, group, ident, int, num, open, opt } from '../fields.js';
import Type from 'typebox';
import { Analytics } from './analytics.js';
import { Conversation } from './conversation.js';
import { Entity, InsightLine, KeyPhrase, Utterance } from './conversationItems.js';
import { RealTimeMessage } from './realTimeMessage.js';
import { JobRequest } from './request.js';
import { TranscriptShape } from './transcriptShape.js';
import { VendorATranscript, VendorBTranscript } from './vendorTranscripts.js';

export const ProcessJob = open(
  {
    ...group(
      [
        '_id', 'jobId', 'status', 'diarization', 'direction', 'callId', 'externalId', 'agentId', 'language', 'engine',
        'jobType', 'supervisorId', 'recordingId', 'clientHierarchyId', 'programHierarchyId', 'agencyHierarchyId',
        'siteHierarchyId', 'parentJob', 'priority', 'account_id', 'campaign_id', 'engine_id', 'engine_name',
        'definition_id', 'engine_url', 'engine_callback', 'engine_type', 'engine_language', 'engine_diarization',
        'engine_sensitivity', 'engine_punctuation', 'webhook', 'cloudPlatform', 'redactionStatus',
      ],
      ident,
    ),
    // Names of people and things, file names and storage paths (callers' numbers and names end up in them),
    // transcripts as text, and free-form values.
    ...group(
      [
        'fileName', 'message', 'metadata', 'site', 'campaign', 'account', 'agent', 'supervisor', 'playbackParameter',
        'account_name', 'campaign_name', 'definition_name', 'engine_labels', 'cloudStorageFolder', 'cloudStoragePath',
        'transcriptInput', 'transcriptOutput', 'redaxionConfig', 'custom1', 'custom2', 'custom3', 'custom4', 'custom5',
      ],
      content,
    ),
    engine_token: opt(credential()),
    ...group(['duration', 'count', 'checkWait', 'nextCheck', 'priorityKey'], num),
    ...group(['createdAt', 'completedAt'], dateTime),
    ...group(
      [
        'cloudHosted', 'redactionEnabled', 'removeRedactedJob', 'isZip', 'autoDelete', 'custom6', 'custom7',
        'vendorB', 'flag0', 'flag1', 'flag3', 'flag4', 'flag5', 'doWebhook', 'webhookCompleted', 'insightsProcessed',
        'enableContactCenterSupport', 'enableAudioRedaction', 'enableTextRedaction', 'enableSentimentAnalysis',
        'enableEmotionalAnalysis', 'enablePersonalityAnalysis', 'enableNotifications', 'enableAdvancedMetrics',
        'enableInsights', 'enableEntityExtraction', 'enableKeywords', 'enableCategorization',
        'enableSemanticSimilarity', 'enableIntentions', 'enableProfanityFiltering', 'enableGenderDetection',
        'enableCustomVocabulary', 'enableAutoDelete', 'enableNumeralConversion', 'enableRealTime',
      ],
      bool,
    ),
    request: opt(JobRequest),
    transcript: opt(TranscriptShape),
    transcriptRedacted: opt(TranscriptShape),
    vendorATranscript: opt(VendorATranscript),
    vendorBTranscript: opt(VendorBTranscript),
    realTimeMessage: opt(RealTimeMessage),
    // Issue 18: a completed job that asked for analytics or insights carries what post-call gives its transcript.
    analytics: opt(Analytics),
    conversation: opt(Conversation),
    utterances: opt(Type.Array(Utterance)),
    insightLines: opt(Type.Array(InsightLine)),
    keyPhrases: opt(Type.Array(KeyPhrase)),
    entities: opt(Type.Array(Entity)),
    ...group(['insightsCreated', 'segmentsCreated'], int),
  },
  { title: 'processJob', description: 'Resource 6. engine_token is a credential.' },
);
export type ProcessJob = Static<typeof ProcessJob>;
