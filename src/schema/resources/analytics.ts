// Resource 18: call analytics.
import Type, { type Static } from 'typebox';
import { bool, dateTime, group, nullable, num, open, opt, str } from '../fields.js';

export const AnalyticsInsight = open({
  ...group(
    [
      'id', 'name', 'speaker', 'type', 'expression', 'phrase', 'response_summary', 'response_expression',
      'response_phrase', 'insight_group', 'direction', 'language',
    ],
    str,
  ),
  ...group(['timestamp', 'response_timestamp'], num),
  value: opt(nullable()),
});

export const Analytics = open(
  {
    ...group(
      [
        'id', 'name', 'ani', 'dnis', 'call_type', 'diarization', 'direction', 'language_agent', 'language_caller',
        'sentiment_agent', 'sentiment_caller', 'campaign', 'team', 'agent', 'client', 'program', 'site', 'agentid',
        'supervisor', 'supervisorid', 'recordingid', 'playbackparameter', 'clienthierarchyid', 'programhierarchyid',
        'agencyhierarchyid', 'sitehierarchyid', 'caller', 'audio_redacted', 'text_redacted',
      ],
      str,
    ),
    ...group(['call_start', 'call_end'], dateTime),
    ...group(
      [
        'total_duration', 'talk_time_agent', 'talk_time_caller', 'overtalk', 'silence', 'sentiment_confidence_agent',
        'sentiment_confidence_caller',
      ],
      num,
    ),
    ...group(['resolution', 'auto_fail'], bool),
    ...group(['propensity', 'recomendation', 'satisfaction'], nullable),
    insights: opt(Type.Array(AnalyticsInsight)),
  },
  { title: 'analytics', description: 'Resource 18.' },
);
export type Analytics = Static<typeof Analytics>;
