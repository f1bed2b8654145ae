// Resource 2: campaign.
import type { Static } from 'typebox';
import { bool, group, int, numbered, open, str } from '../fields.js';

export const Campaign = open(
  {
    ...group(
      [
        'campaignId', 'name', 'description', 'externalId', 'accountId', 'accountName', 'parentId', 'parentName',
        'conversationId', 'diarization', 'direction', 'agentLocation', 'channelDiarizationLabels', 'webhook',
        'headers', 'appId', 'appKey', 'appSecret', 'template', 'eventId',
        ...numbered('feature', 5), ...numbered('setting', 10), ...numbered('platform', 5),
        'accessUrl', 'folder', 'acessKey', 'secretKey',
      ],
      str,
    ),
    ...group(
      [
        'active', 'secondary', 'enableAudioRedaction', 'enableTextRedaction', 'enableInsights',
        'enableSentimentAnalysis', 'enableEmotionalAnalysis', 'enablePersonalityAnalysis', 'enableNotifications',
        'enableAdvancedMetrics', 'enableEntityExtraction', 'enableKeywords', 'enableCategorization',
        'enableSemanticSimilarity', 'enableIntentions', 'enableProfanityFiltering', 'enableGenderDetection',
        'enableCustomVocabulary', 'enableAutoDelete', 'enableNumeralConversion', 'enableRealTime', 'doHippa',
        'doMedical', 'enableContactCenterSupport',
        ...numbered('featureFlag', 5), ...numbered('settingFlag', 10), ...numbered('platformFlag', 5),
      ],
      bool,
    ),
    ...group(['retentionPolicy', 'behavior', 'confidenceLevel'], int),
  },
  { title: 'campaign', description: 'Resource 2. appKey, appSecret, acessKey, secretKey and accessUrl are credentials: stored encrypted, answered masked.' },
);
export type Campaign = Static<typeof Campaign>;
