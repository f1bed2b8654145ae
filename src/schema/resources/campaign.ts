// Resource 2: campaign.
import type { Static } from 'typebox';
import { bool, content, credential, group, ident, int, numbered, open } from '../fields.js';

export const Campaign = open(
  {
    ...group(
      [
        'campaignId', 'externalId', 'accountId', 'parentId', 'conversationId', 'diarization', 'direction',
        'agentLocation', 'webhook', 'appId', 'eventId', 'folder',
      ],
      ident,
    ),
    // Free-form values whose meaning the interface leaves open are content.
    ...group(
      [
        'name', 'description', 'accountName', 'parentName', 'channelDiarizationLabels', 'headers', 'template',
        ...numbered('feature', 5), ...numbered('setting', 10), ...numbered('platform', 5),
      ],
      content,
    ),
    ...group(['appKey', 'appSecret', 'accessUrl', 'acessKey', 'secretKey'], credential),
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
