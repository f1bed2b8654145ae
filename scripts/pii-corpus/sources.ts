// Where the corpus's names and places come from, split by source so that the test split's names and streets are
// never seen in training: @faker-js/faker locales, each locale given to one split, and within a split only values
// no earlier split holds. Train: English, German, French, Spanish, Italian, Brazilian, Indian, Polish; dev: Dutch,
// Swedish, Danish, Australian, Afrikaans; test: Vietnamese, Turkish, Finnish, Hungarian, Czech, Romanian, Croatian,
// Slovak, Norwegian, Nigerian (English, Yoruba), Zulu, Mexican, Indonesian (non-ASCII and hyphenated names included).
import { allLocales, Faker, type LocaleDefinition } from '@faker-js/faker';

export type Split = 'train' | 'dev' | 'test';
export const SPLITS: readonly Split[] = ['train', 'dev', 'test'];

type LocaleKey = keyof typeof allLocales;
export const NAME_LOCALES: Record<Split, LocaleKey[]> = {
  train: ['en', 'de', 'fr', 'es', 'it', 'pt_BR', 'en_IN', 'pl'],
  dev: ['nl', 'sv', 'da', 'en_AU', 'af_ZA'],
  test: ['vi', 'tr', 'fi', 'hu', 'cs_CZ', 'ro', 'hr', 'sk', 'nb_NO', 'en_NG', 'yo_NG', 'zu_ZA', 'es_MX', 'id_ID'],
};
/** Street addresses: US/UK-style English and European formats in training; other locales' formats held out. */
export const ADDRESS_LOCALES: Record<Split, LocaleKey[]> = {
  train: ['en_US', 'en_GB', 'de', 'fr', 'it', 'en_IN', 'pt_BR', 'cs_CZ', 'hu', 'ro', 'sk', 'hr'],
  dev: ['en_AU', 'nl', 'sv', 'da'],
  test: ['en_NG', 'zu_ZA', 'af_ZA', 'vi', 'fi', 'tr', 'pl', 'es', 'nb_NO'],
};

/**
 * A fourth pool, "probe", for reading errors on unseen sources without looking at test: names and streets from
 * locales no split uses (Latvian, Serbian, Uzbek, Azerbaijani, Ghanaian, Senegalese; Irish, South African English,
 * Portuguese, Swiss, Austrian formats), minus every value of train, dev and test. The corpus's probe turns are the
 * dev split's sentence frames with these names (generate(..., { probe: true })): dev frames, test-like sources.
 */
export const PROBE_NAME_LOCALES: LocaleKey[] = ['lv', 'sr_RS_latin', 'uz_UZ_latin', 'az', 'en_GH', 'fr_SN'];
export const PROBE_ADDRESS_LOCALES: LocaleKey[] = ['en_IE', 'en_ZA', 'lv', 'sr_RS_latin', 'pt_PT', 'de_CH', 'de_AT', 'az', 'en_GH', 'fr_SN', 'uz_UZ_latin', 'fr_BE', 'nl_BE', 'ro_MD', 'en_CA'];

export interface Place {
  /** "4521 Marcos Junction", "Friedrich-Ebert-Platz 5". */
  street: string;
  city: string;
  /** State or region, when the locale has one. */
  region?: string;
  postcode: string;
  /** Which country's postcode form (for how it is said). */
  locale: string;
}

export interface Pools {
  first: string[];
  last: string[];
  places: Place[];
  /** Email local parts and domains are made from the split's names. */
  domains: string[];
}

function faker(locale: LocaleKey, seed: number): Faker {
  const f = new Faker({ locale: [allLocales[locale] as LocaleDefinition, allLocales.en, allLocales.base] });
  f.seed(seed);
  return f;
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
/** A name usable as a given or family name: letters, apostrophes, hyphens; no titles or suffixes. */
const nameOk = (s: string) => /^[\p{Lu}][\p{L}\p{M}'’-]+$/u.test(s) && s.length >= 2;

function unique<T>(xs: T[], key: (x: T) => string, seen: Set<string>): T[] {
  const out: T[] = [];
  for (const x of xs) {
    const k = key(x).toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(x);
  }
  return out;
}

/**
 * Name and place pools for every split, and the probe pool; a value in an earlier split (train, then dev, then
 * test) is left out of later ones.
 */
export function buildPools(seed: number, perLocale = 160): Record<Split | 'probe', Pools> {
  // one set for given and family names: a given name in training is never a family name in test
  const seenNames = new Set<string>();
  const seenStreet = new Set<string>();
  const out = {} as Record<Split | 'probe', Pools>;
  const pools: [Split | 'probe', LocaleKey[], LocaleKey[]][] = [...SPLITS.map((s): [Split, LocaleKey[], LocaleKey[]] => [s, NAME_LOCALES[s], ADDRESS_LOCALES[s]]), ['probe', PROBE_NAME_LOCALES, PROBE_ADDRESS_LOCALES]];
  for (const [si, [split, nameLocales, addressLocales]] of pools.entries()) {
    const first: string[] = [];
    const last: string[] = [];
    nameLocales.forEach((loc, li) => {
      const f = faker(loc, seed * 1000 + li + si * 100);
      for (let i = 0; i < perLocale; i++) {
        const fn = clean(f.person.firstName());
        const ln = clean(f.person.lastName());
        for (const part of fn.split(' ')) if (nameOk(part)) first.push(part);
        if (ln.split(' ').every(nameOk) && ln.split(' ').length <= 2) last.push(ln);
      }
    });
    const places: Place[] = [];
    addressLocales.forEach((loc, li) => {
      const f = faker(loc, seed * 7000 + li + si * 100);
      for (let i = 0; i < perLocale / 2; i++) {
        let street = clean(f.location.streetAddress(false));
        if (!/\d/.test(street)) street = `${f.number.int({ min: 1, max: 999 })} ${street}`;
        places.push({ street, city: clean(f.location.city()), region: loc.startsWith('en_US') || loc === 'en_AU' ? clean(f.location.state({ abbreviated: f.datatype.boolean() })) : undefined, postcode: clean(f.location.zipCode()), locale: loc });
      }
    });
    const domainFaker = faker(nameLocales[0], seed + si);
    out[split] = {
      first: unique(first, (x) => x, seenNames),
      last: unique(last, (x) => x, seenNames),
      places: unique(places, (p) => p.street, seenStreet),
      domains: Array.from({ length: 30 }, () => domainFaker.internet.domainName()),
    };
  }
  return out;
}
