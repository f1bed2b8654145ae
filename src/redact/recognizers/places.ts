// US states (names and postal abbreviations) and street-type words, shared by the zip code and address recognizers.
export const STATE_NAMES = new Set([
  'alabama', 'alaska', 'arizona', 'arkansas', 'california', 'colorado', 'connecticut', 'delaware', 'florida', 'georgia',
  'hawaii', 'idaho', 'illinois', 'indiana', 'iowa', 'kansas', 'kentucky', 'louisiana', 'maine', 'maryland',
  'massachusetts', 'michigan', 'minnesota', 'mississippi', 'missouri', 'montana', 'nebraska', 'nevada', 'hampshire',
  'jersey', 'mexico', 'york', 'carolina', 'dakota', 'ohio', 'oklahoma', 'oregon', 'pennsylvania', 'rhode', 'tennessee',
  'texas', 'utah', 'vermont', 'virginia', 'washington', 'wisconsin', 'wyoming', 'columbia',
]);
export const STATE_ABBR = new Set([
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD',
  'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC',
  'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC',
]);
/** Canadian provinces and territories: postal abbreviations and (one-word) names. */
export const PROVINCE_ABBR = new Set(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']);
export const PROVINCE_NAMES = new Set(['alberta', 'columbia', 'manitoba', 'brunswick', 'newfoundland', 'labrador', 'scotia', 'ontario', 'quebec', 'québec', 'saskatchewan', 'yukon', 'nunavut']);
export const STREET_SUFFIX = new Set([
  'street', 'st', 'avenue', 'ave', 'av', 'road', 'rd', 'lane', 'ln', 'drive', 'dr', 'court', 'ct', 'boulevard', 'blvd',
  'way', 'place', 'pl', 'circle', 'cir', 'terrace', 'ter', 'parkway', 'pkwy', 'highway', 'hwy', 'trail', 'trl', 'square',
  'sq', 'alley', 'crescent', 'close', 'row', 'plaza', 'loop', 'path', 'pike', 'route', 'rte', 'run', 'walk', 'grove',
  'heights', 'ridge', 'point', 'crossing', 'expressway', 'freeway',
]);
/**
 * More street types (USPS suffixes and those of Australian, British and Nordic addresses) that are also ordinary
 * words or surnames ("Meadow", "Park", "Hill", "Gate"): not enough for an address on their own, but a listed name
 * with a house number before it and one of these after it is a street ("527 Justin Meadow", "Roberts Väg 8").
 */
export const STREET_TYPES_MORE = new Set(`meadow meadows knoll knolls circuit pass crest mews junction manor parade estate estates
track gardens garden green park view hill hills vale wharf esplanade promenade quay rise gate gateway glen hollow
landing bend cove creek field fields brook causeway centre center corner haven spur summit village vista wells mall
port station shore shores forest orchard oval ridge river valley spring springs lodge mount key island lake lakes
mill mills plains prairie ranch trace union ville dale divide ferry fork forge ford fort common course cliff camp
branch bridge burg canyon cape club curve extension falls flat glade grange chase close drove fold nook reach row
väg vägen gata gatan gränd vej gade vei veien gate allé alle stræde plads torg
inlet inlets pines points ports lights light crossroad crossroads tunnel radial fall plain land isle loaf locks lock
motorway neck pine ramp rapid rapids rest shoal shoals skyway stream turnpike underpass viaduct overpass wall well
ways walks views villages mountain mountains passage parks squares stravenue throughway trafficway cliffs courts
drives flats fords harbors hollows junctions keys knoll lanes manors ridges roads routes spurs terraces vias
iela gatve bulvāris prospekts küçəsi prospekti sahəsi döngəsi şossesi`.split(/\s+/));
/**
 * Street words that come before the name in Romance and other addresses ("Avenida Diana Vicente 44", "Praça Ariana
 * Esteves 87"): with a house number after the name, what looks like a person is a street (person.ts).
 */
export const STREET_PREFIX_MORE = new Set(`rue via calle avenida rua avenue ulica strada chemin boulevard plaza piazza viale
alameda viela caminho praça praca ladeira acesso urbanização jardim travessa largo estrada camino paseo carrera ronda
allée impasse quai corso vicolo drève dreef bairro aleea calea bulevardul intrarea splaiul`.split(/\s+/));
/** Street words that come before the name ("rue Descartes", "via Roma"). */
export const STREET_PREFIX = new Set(['rue', 'via', 'calle', 'avenida', 'rua', 'avenue', 'ulica', 'strada', 'chemin', 'boulevard', 'plaza', 'piazza', 'viale']);
/** Street name endings in other languages ("Nassaustraat 123", "Ziegelgasse 26"). */
export const FOREIGN_STREET = /(straat|strasse|straße|gasse|weg|laan|gata|gatan|vej|vägen|utca|allee|platz|ring|steig|dreef|kade|plein|veien|tie|katu)$/;
export const UNIT_WORDS = new Set(['apt', 'apartment', 'suite', 'ste', 'unit', 'floor', 'fl', 'room', 'rm', 'building', 'bldg', 'number', 'no', '#']);
export const DIRECTIONS = new Set(['north', 'south', 'east', 'west', 'n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw', 'northeast', 'northwest', 'southeast', 'southwest']);
/** Large US cities (one word, lower case): a city after a street, and never a person on its own. */
export const US_CITIES = new Set(`
houston dallas austin phoenix philadelphia chicago denver seattle boston atlanta miami detroit memphis nashville
baltimore milwaukee albuquerque tucson fresno sacramento omaha raleigh minneapolis tulsa cleveland wichita
arlington tampa orlando pittsburgh cincinnati louisville portland oakland anaheim honolulu stockton riverside
lexington henderson newark greensboro lincoln plano irvine durham madison lubbock laredo reno scottsdale
spokane tacoma richmond boise buffalo rochester springfield syracuse hartford providence charleston savannah
columbus indianapolis jacksonville charlotte brooklyn queens manhattan bronx
`.trim().split(/\s+/));
/** Country names (one word, lower case) that end an address before its postcode ("..., Denmark 15838"). */
export const COUNTRIES = new Set(`
usa us america canada mexico france germany spain italy portugal netherlands belgium denmark sweden norway finland
iceland ireland poland austria switzerland hungary greece turkey russia ukraine romania serbia croatia slovenia
slovakia czechia bulgaria estonia latvia lithuania cyprus malta luxembourg albania tunisia morocco algeria egypt
nigeria kenya ghana rwanda ethiopia uganda tanzania zambia zimbabwe namibia botswana senegal cameroon bolivia
brazil argentina chile peru colombia venezuela ecuador uruguay paraguay cuba jamaica haiti honduras guatemala
nicaragua panama india pakistan bangladesh china japan korea vietnam thailand malaysia singapore indonesia
philippines australia zealand israel jordan lebanon iran iraq
`.trim().split(/\s+/));
