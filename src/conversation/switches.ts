// Which analyses run for a call: the campaign switches (resource 2), else the processJob's (resource 6). Figures
// from times (talk, silence, over-talk, changes) always run when there is a conversation; sentiment, key
// phrases, entities and insights run unless switched off (false); profanity masking, numeral conversion and
// organizations only when switched on (the first two change the text; the last costs a parse per line). Gender and emotion need the audio: never from a record (null).
export interface Switches {
  sentiment: boolean;
  keywords: boolean;
  entities: boolean;
  /** Organizations (compromise, a few ms an utterance, inline): only when enableEntityExtraction is true. */
  organizations: boolean;
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
    organizations: flag('enableEntityExtraction') === true,
    insights: flag('enableInsights') !== false,
    profanity: flag('enableProfanityFiltering') === true,
    numerals: flag('enableNumeralConversion') === true,
  };
}
