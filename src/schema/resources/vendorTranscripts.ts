// Resources 3 and 4: the two vendor transcript shapes, and the utterance/word shapes they share.
import Type, { type Static } from 'typebox';
import { anyArray, bool, content, credential, group, ident, int, num, open, opt, phone } from '../fields.js';

export const WordEvent = open({
  ...group(['confidence', 'end', 'start'], num),
  ...group(['word', 'wordex'], content),
});

const utteranceFields = {
  ...group(['emotion', 'donedate', 'recvdate', 'gender', 'sentiment'], ident),
  recvtz: opt(anyArray()),
  ...group(['confidence', 'end', 'start'], num),
  events: opt(Type.Array(WordEvent)),
  sentimentex: opt(Type.Array(anyArray())),
};

export const VendorAUtterance = open({
  ...utteranceFields,
  metadata: opt(open({ ...group(['source', 'model'], ident), ...group(['uttid', 'channel'], int) })),
});

export const VendorBUtterance = open({
  ...utteranceFields,
  metadata: opt(open({ ...group(['source', 'model'], ident), ...group(['uttid', 'channel', 'nsubs'], int) })),
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

export const CtiData = open({
  ...group(
    [
      'call_queue_time', 'call_language', 'omni_total_body_chars_size', 'call_wrapup_time', 'omni_email_priority',
      'call_campaign_id', 'call_start_timestamp', 'hipercalltype', 'call_bill_time', 'omni_total_body_bytes_size',
      'call_session_id', 'agent_id', 'ivr_error_code', 'call_type', 'agent_station_type', 'call_length',
      'ivr_last_module', 'call_handle_time', 'call_park_time', 'call_hold_time', 'call_mediatype',
    ],
    ident,
  ),
  // full_name and user_name are masked whole as a Person (redact/conversationText.ts).
  ...group(['agent_first_agent', 'full_name', 'campaign_name', 'user_name', 'skill_name', 'ivr_error_desc'], content),
  call_number: opt(phone()),
});

export const VendorATranscript = open(
  {
    ...group(
      ['emotion', 'asr', 'donedate', 'sentiment', 'ended', 'started', 'source', 'model', 'recvdate', 'requestid', 'license', 'nsubs'],
      ident,
    ),
    ...group(['confidence', 'nchannels', 'audiosecs', 'diascore'], num),
    recvtz: opt(anyArray()),
    sentiment_scores: opt(Type.Array(num())),
    utterances: opt(Type.Array(VendorAUtterance)),
    streamtags: opt(
      open({
        ...group(['emotion', 'punctuate', 'numtrans', 'diarize', 'substinfo', 'scrubtext', 'gender', 'scrubaudio', 'realtime'], bool),
        ...group(['model', 'datahdr', 'filters'], ident),
      }),
    ),
    chaninfo: opt(Type.Array(open({ emotion: opt(ident()), textinfo: opt(TextInfo) }))),
    textinfo: opt(TextInfo),
    ctidata: opt(CtiData),
  },
  { title: 'vendorATranscript', description: 'Resource 3.' },
);
export type VendorATranscript = Static<typeof VendorATranscript>;

export const VendorBTranscript = open(
  {
    ...group(['emotion', 'asr', 'donedate', 'sentiment', 'ended', 'started', 'source', 'recvdate', 'license'], ident),
    ...group(['confidence', 'audiosecs', 'nchannels', 'nsubs'], num),
    recvtz: opt(anyArray()),
    sentiment_scores: opt(Type.Array(num())),
    model: opt(Type.Array(ident())),
    utterances: opt(Type.Array(VendorBUtterance)),
    streamtags: opt(open({ ...group(['emotion', 'gender'], bool), ...group(['billing', 'datahdr'], ident), token: opt(credential()) })),
    chaninfo: opt(Type.Array(open({ emotion: opt(ident()), textinfo: opt(TextInfoB) }))),
    textinfo: opt(TextInfoB),
  },
  { title: 'vendorBTranscript', description: 'Resource 4. streamtags.token is a credential.' },
);
export type VendorBTranscript = Static<typeof VendorBTranscript>;
