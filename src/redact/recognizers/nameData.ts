// Common US first and last names (SSA and Census top names, lower case) joined with the ~4,000 names of
// compromise's own lexicon (already a dependency: no new data shipped), and the names that are also ordinary
// English words (only taken with a cue or next to another name): the hand list below plus every name the
// lexicon also knows as an ordinary word (noun, verb, adjective, city, month, ...).
import nlp from 'compromise';
import { US_CITIES } from './places.js';

const CURATED_FIRST = new Set(`
james john robert michael william david richard joseph thomas charles christopher daniel matthew anthony mark donald
steven paul andrew joshua kenneth kevin brian george timothy ronald edward jason jeffrey ryan jacob gary nicholas eric
jonathan stephen larry justin scott brandon benjamin samuel gregory alexander frank patrick raymond jack dennis jerry
tyler aaron jose adam nathan henry douglas zachary peter kyle ethan walter noah jeremy christian keith roger terry
gerald harold sean austin carl arthur lawrence dylan jesse jordan bryan billy joe bruce gabriel logan albert willie
alan juan wayne elijah randy roy vincent ralph eugene russell bobby mason philip louis luis carlos miguel antonio
mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty margaret sandra ashley
kimberly emily donna michelle carol amanda dorothy melissa deborah stephanie rebecca sharon laura cynthia kathleen
amy angela shirley anna brenda pamela emma nicole helen samantha katherine christine debra rachel carolyn janet
catherine maria heather diane ruth julie olivia joyce virginia victoria kelly lauren christina joan evelyn judith
megan andrea cheryl hannah jacqueline martha gloria teresa ann sara madison frances kathryn janice jean abigail alice
judy sophia denise amber doris marilyn danielle beverly isabella theresa diana natalie brittany charlotte marie
kayla alexis lori tiffany alexandra colleen jakobine lilly lily mia chloe ava grace zoe hailey emma jasmine leah
tracy kristin lauren jessie jim tom mike bob bill dave steve chris matt dan tony nick sam ben joe ted ed alex kate
katie liz beth jen jenny jess meg becky sue susie cathy kathy pat patty
`.trim().split(/\s+/));

const CURATED_LAST = new Set(`
smith johnson williams brown jones garcia miller davis rodriguez martinez hernandez lopez gonzalez wilson anderson
thomas taylor moore jackson martin lee perez thompson white harris sanchez clark ramirez lewis robinson walker young
allen king wright scott torres nguyen hill flores green adams nelson baker hall rivera campbell mitchell carter
roberts gomez phillips evans turner diaz parker cruz edwards collins reyes stewart morris morales murphy cook rogers
gutierrez ortiz morgan cooper peterson bailey reed kelly howard ramos kim cox ward richardson watson brooks chavez
wood james bennett gray mendoza ruiz hughes price alvarez castillo sanders patel myers long ross foster jimenez
powell jenkins perry russell sullivan bell coleman butler henderson barnes gonzales fisher vasquez simmons romero
jordan patterson alexander hamilton graham reynolds griffin wallace west cole hayes bryant herrera gibson ellis
tran medina aguilar stevens murray ford castro marshall owens harrison fernandez mcdonald woods washington kennedy
wells vargas henry chen freeman webb tucker guzman burns crawford olson simpson porter hunter gordon mendez silva
shaw snyder mason dixon munoz hunt hicks holmes palmer wagner black robertson boyd rose stone salazar fox warren
mills meyer rice schmidt garza daniels ferguson nichols stephens soto weaver ryan gardner payne grant dunn kelley
spencer hawkins arnold pierce vazquez hansen peters santos hart bradley knight elliott cunningham duncan armstrong
hudson carroll lane riley andrews alvarado ray delgado berry perkins hoffman johnston matthews pena richards
willis carpenter lawrence sandoval connor wiley solomon
`.trim().split(/\s+/));

const CURATED_AMBIGUOUS = new Set(`
will mark bill rose grace may june april hope joy faith art frank summer young king brown green white black long
hall wood rich sandy dawn ray jack chase hunter carter price bell fox miles august lane dean penny holly ruby
crystal amber autumn pat sue don guy drew jean page wade cole gene chance king stone rice hill mills west ford
long cook park wells hunt grant dunn hart knight berry parker reed gray ward brooks perry bush banks day love may
sam joe ben dan ted ed tom jim bob mike nick matt chris alex kate beth liz jordan christian will virginia georgia
carol marie lee sharon ann jose joan martin kelly morgan taylor ryan terry henry james thomas jackson scott allen
washington lily lilly olive pearl iris violet gary carl roger
`.trim().split(/\s+/));

/** Names that the list must not treat as names on their own, though compromise files them as names. */
const EXTRA_AMBIGUOUS = `
chase grant hunter major sterling rusty sunny sky star rocky misty bliss cash dusty ginger honey candy destiny
harmony melody trinity unity justice liberty precious lucky goldie jewel diamond royal prince princess king queen
duke earl baron bishop judge dean marshal sargent colonel
`.trim().split(/\s+/);

const NAME_TAG = /^(FemaleName|MaleName|FirstName|LastName)$/;
const lexicon = (nlp as unknown as { model(): { one: { lexicon: Record<string, string | string[]> } } }).model().one.lexicon;
const lexFirst: string[] = [];
const lexLast: string[] = [];
/** Words compromise knows as something other than a name (its lexicon holds about 20,000 ordinary words). */
export const COMMON_WORDS = new Set<string>();
/** Cities, countries, regions and places in compromise's lexicon ("houston", "dallas"): never a name alone. */
export const PLACE_WORDS = new Set<string>(US_CITIES);
for (const [word, t] of Object.entries(lexicon)) {
  const tags = Array.isArray(t) ? t : [t];
  if (tags.some((x) => !NAME_TAG.test(x))) COMMON_WORDS.add(word);
  if (tags.some((x) => x === 'City' || x === 'Country' || x === 'Region' || x === 'Place')) PLACE_WORDS.add(word);
  if (!/^[a-z][a-z'-]+$/.test(word)) continue;
  if (tags.some((x) => x === 'FemaleName' || x === 'MaleName' || x === 'FirstName')) lexFirst.push(word);
  if (tags.includes('LastName')) lexLast.push(word);
}

export const FIRST_NAMES = new Set([...CURATED_FIRST, ...lexFirst]);
export const LAST_NAMES = new Set([...CURATED_LAST, ...lexLast]);
/** Names that are also common words: never taken on their own in lower-case (ASR) text. */
export const AMBIGUOUS = new Set([...CURATED_AMBIGUOUS, ...EXTRA_AMBIGUOUS, ...[...FIRST_NAMES, ...LAST_NAMES].filter((w) => COMMON_WORDS.has(w))]);

/** First names that are also everyday words ("Will", "May", "June"): names only right after a cue. */
export const WORD_NAMES = new Set(`will may june april mark bill rose grace hope joy faith art frank summer dawn ray jack
chase hunter drew dean penny holly ruby crystal amber autumn pat sue don guy jean wade gene sandy rich miles august
sam ben dan ted ed tom jim bob mike nick matt chris alex kate beth liz jordan carol marie lee sharon ann joan martin
kelly morgan taylor ryan terry henry james thomas scott allen lily olive pearl iris violet gary carl roger virginia
georgia`.split(/\s+/));

/** Words before a name that make it a place ("Santa Rosa", "San Jose", "Fort Worth", "St. Louis"). */
export const PLACE_PREFIX = new Set(`santa san santo sao são st saint ste fort ft port mount mt lake los las el la palo rio
costa puerto punta villa ciudad cape glen`.split(/\s+/));
/** Words after a name that make it a place ("Virginia Beach", "Palm Springs", "Carson City"). */
export const PLACE_SUFFIX = new Set(`beach springs city falls heights valley hills harbor harbour island islands county
township village bay creek river lake`.split(/\s+/));

/** A word with its accents dropped, for the name lists ("josé" jose, "zoë" zoe, "nguyễn" nguyen). */
export function fold(word: string): string {
  return /^[\x00-\x7f]*$/.test(word) ? word : word.normalize('NFD').replace(/\p{M}/gu, '').replace(/đ/g, 'd').replace(/ø/g, 'o').replace(/ł/g, 'l');
}
