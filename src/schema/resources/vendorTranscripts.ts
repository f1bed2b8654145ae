// Resources 3 and 4: the two vendor transcript shapes, and the utterance/word shapes they share.
import Type, { type Static } from 'typebox';
import { anyArray, bool, group, int, num, open, opt, str } from '../fields.js';

export const WordEvent = open({
  ...group(['confidence', 'end', 'start'], num),
  ...group(['word', 'wordex'], str),
});

const utteranceFields = {
  ...group(['emotion', 'donedate', 'recvdate', 'gender', 'sentiment'], str),
  recvtz: opt(anyArray()),
  ...group(['confidence', 'end', 'start'], num),
  events: opt(Type.Array(WordEvent)),
  sentimentex: opt(Type.Array(anyArray())),
};

export const VendorAUtterance = open({
  ...utteranceFields,
  metadata: opt(open({ ...group(['source', 'model'], str), ...group(['uttid', 'channel'], int) })),
});

export const VendorBUtterance = open({
  ...utteranceFields,
  metadata: opt(open({ ...group(['source', 'model'], str), ...group(['uttid', 'channel', 'nsubs'], int) })),
});

export const TextInfo = open({
  turns: opt(int()),
  words: opt(int()),
  wordtime: opt(Type.Array(num())),
  silence: opt(Type.Array(num())),
});

export const TextInfoB = open({
  turns: opt(int()),
  words: opt(int()),
  wordtime: opt(Type.Array(num())),
  silence: opt(Type.Array(num())),
  overtalk: opt(open({ count: opt(Type.Array(num())), avgtime: opt(num()), time: opt(Type.Array(num())) })),
});

export const CtiData = open(
  group(
    [
      'call_queue_time', 'agent_first_agent', 'call_language', 'omni_total_body_chars_size', 'full_name',
      'campaign_name', 'call_wrapup_time', 'call_number', 'omni_email_priority', 'call_campaign_id',
      'call_start_timestamp', 'hipercalltype', 'call_bill_time', 'user_name', 'omni_total_body_bytes_size',
      'call_session_id', 'agent_id', 'ivr_error_code', 'skill_name', 'call_type', 'agent_station_type',
      'call_length', 'ivr_last_module', 'call_handle_time', 'call_park_time', 'call_hold_time', 'ivr_error_desc',
      'call_mediatype',
    ],
    str,
  ),
);

export const VendorATranscript = open(
  {
    ...group(
      ['emotion', 'asr', 'donedate', 'sentiment', 'ended', 'started', 'source', 'model', 'recvdate', 'requestid', 'license', 'nsubs'],
      str,
    ),
    ...group(['confidence', 'nchannels', 'audiosecs', 'diascore'], num),
    recvtz: opt(anyArray()),
    sentiment_scores: opt(Type.Array(num())),
    utterances: opt(Type.Array(VendorAUtterance)),
    streamtags: opt(
      open({
        ...group(['emotion', 'punctuate', 'numtrans', 'diarize', 'substinfo', 'scrubtext', 'gender', 'scrubaudio', 'realtime'], bool),
        ...group(['model', 'datahdr', 'filters'], str),
      }),
    ),
    chaninfo: opt(Type.Array(open({ emotion: opt(str()), textinfo: opt(TextInfo) }))),
    textinfo: opt(TextInfo),
    ctidata: opt(CtiData),
  },
  { title: 'vendorATranscript', description: 'Resource 3.' },
);
export type VendorATranscript = Static<typeof VendorATranscript>;

export const VendorBTranscript = open(
  {
    ...group(['emotion', 'asr', 'donedate', 'sentiment', 'ended', 'started', 'source', 'recvdate', 'license'], str),
    ...group(['confidence', 'audiosecs', 'nchannels', 'nsubs'], num),
    recvtz: opt(anyArray()),
    sentiment_scores: opt(Type.Array(num())),
    model: opt(Type.Array(str())),
    utterances: opt(Type.Array(VendorBUtterance)),
    streamtags: opt(open({ ...group(['emotion', 'gender'], bool), ...group(['billing', 'token', 'datahdr'], str) })),
    chaninfo: opt(Type.Array(open({ emotion: opt(str()), textinfo: opt(TextInfoB) }))),
    textinfo: opt(TextInfoB),
  },
  { title: 'vendorBTranscript', description: 'Resource 4. streamtags.token is a credential.' },
);
export type VendorBTranscript = Static<typeof VendorBTranscript>;
