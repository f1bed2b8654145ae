// Which analyses run for a call: the campaign switches (resource 2), else the processJob's (resource 6). Figures
// from times (talk, silence, over-talk, changes) always run when there is a conversation; sentiment, key
// phrases, entities and insights run unless switched off (false); profanity masking and numeral conversion only
// when switched on (they change the text). Gender and emotion need the audio: never from a record (null).
export interface Switches {
  sentiment: boolean;
  keywords: boolean;
  entities: boolean;
  insights: boolean;
  profanity: boolean;
  numerals: boolean;
}

type Flags = Record<string, unknown> | undefined;

export function switchesOf(...sources: Flags[]): Switches {
  const flag = (name: string): boolean | undefined => {
    for (const s of sources) if (s && typeof s[name] === 'boolean') return s[name] as boolean;
    return undefined;
  };
  return {
    sentiment: flag('enableSentimentAnalysis') !== false,
    keywords: flag('enableKeywords') !== false,
    entities: flag('enableEntityExtraction') !== false,
    insights: flag('enableInsights') !== false,
    profanity: flag('enableProfanityFiltering') === true,
    numerals: flag('enableNumeralConversion') === true,
  };
}
