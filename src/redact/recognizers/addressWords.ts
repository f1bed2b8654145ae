// Address words the name rules read beside places.ts (kept apart from it: places.ts is an input of the tagger's
// model, scripts/pii-corpus/inputs.ts, and these lists are not features): more street words that open a street
// before its name, and towns that are also given names.
import { STREET_PREFIX_MORE } from './places.js';

/** Street words before the name (places.ts's, and those of more languages: "Rodovia Marta", "Trg Ivana", "Aleja Róż"). */
export const STREET_OPENERS: ReadonlySet<string> = new Set([
  ...STREET_PREFIX_MORE,
  ...`rodovia marginal vereda quadra setor beco travesía glorieta carretera paraje rambla riera vía pasaje carrer avinguda
passeig plaça contrada borgo lungomare incrocio rotonda galleria șoseaua soseaua şoseaua piața piata trg obala vijenac
šetalište aleja osiedle plac rynek ul đường phố ruelle voie chaussée`.split(/\s+/),
]);

/**
 * Towns and cities that are also given names ("the store in Tyler", "it left Eugene yesterday"): a place after "in",
 * "near", "from"..., not a person.
 */
export const NAME_CITIES: ReadonlySet<string> = new Set(`tyler eugene florence aurora marietta jackson victoria madison charlotte austin savannah
augusta helena alexandria lafayette lincoln marion lawrence hamilton warren troy logan tracy kent carson irving allen
quincy norman chester camden beverly clifton dayton orlando raleigh sherman milton everett bryan pierre jasper regina
mesa adelaide`.split(/\s+/));
