// Resource 6: a job record.
import type { Static } from 'typebox';
import { bool, dateTime, group, num, open, opt, str } from '../fields.js';
import { RealTimeMessage } from './realTimeMessage.js';
import { JobRequest } from './request.js';
import { TranscriptShape } from './transcriptShape.js';
import { VendorATranscript, VendorBTranscript } from './vendorTranscripts.js';

export const ProcessJob = open(
  {
    ...group(
      [
        '_id', 'jobId', 'fileName', 'status', 'message', 'diarization', 'direction', 'metadata', 'callId',
        'externalId', 'site', 'campaign', 'account', 'agent', 'agentId', 'language', 'engine', 'jobType',
        'supervisor', 'supervisorId', 'recordingId', 'playbackParameter', 'clientHierarchyId', 'programHierarchyId',
        'agencyHierarchyId', 'siteHierarchyId', 'parentJob', 'priority', 'account_id', 'account_name', 'campaign_id',
        'campaign_name', 'engine_id', 'engine_name', 'definition_id', 'definition_name', 'engine_url',
        'engine_callback', 'engine_type', 'engine_token', 'engine_language', 'engine_diarization',
        'engine_sensitivity', 'engine_labels', 'engine_punctuation', 'webhook', 'cloudPlatform',
        'cloudStorageFolder', 'cloudStoragePath', 'redactionStatus', 'transcriptInput', 'transcriptOutput',
        'redaxionConfig', 'custom1', 'custom2', 'custom3', 'custom4', 'custom5',
      ],
      str,
    ),
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
  },
  { title: 'processJob', description: 'Resource 6. engine_token is a credential.' },
);
export type ProcessJob = Static<typeof ProcessJob>;
