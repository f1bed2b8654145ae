// Resource 18: call analytics.
import Type, { type Static } from 'typebox';
import { bool, content, dateTime, group, ident, nullable, num, open, opt, phone } from '../fields.js';

export const AnalyticsInsight = open({
  ...group(['id', 'speaker', 'type', 'direction', 'language'], ident),
  ...group(
    ['name', 'expression', 'phrase', 'response_summary', 'response_expression', 'response_phrase', 'insight_group'],
    content,
  ),
  ...group(['timestamp', 'response_timestamp'], num),
  value: opt(nullable()),
});

export const Analytics = open(
  {
    ...group(
      [
        'id', 'call_type', 'diarization', 'direction', 'language_agent', 'language_caller', 'sentiment_agent',
        'sentiment_caller', 'agentid', 'supervisorid', 'recordingid', 'clienthierarchyid', 'programhierarchyid',
        'agencyhierarchyid', 'sitehierarchyid',
      ],
      ident,
    ),
    // Names of people and of things named by people, and whatever the redacted outputs hold.
    ...group(
      [
        'name', 'campaign', 'team', 'agent', 'client', 'program', 'site', 'supervisor', 'playbackparameter',
        'audio_redacted', 'text_redacted',
      ],
      content,
    ),
    // `caller` holds a number or a name: masked whole with PhoneNumber, else searched.
    ...group(['ani', 'dnis', 'caller'], phone),
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
