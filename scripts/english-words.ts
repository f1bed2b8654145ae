// Builds src/redact/tagger/english-words.txt (and english-name-words.txt, below): English words (SCOWL's American list, Debian's wamerican package:
// `apt-get install wamerican`, /usr/share/dict/american-english) that the filters of the tagger's runs cannot
// otherwise tell from a name or a street. humannames lists many ordinary nouns ("company", "battery", "sim",
// "dials"), and compromise's lexicon holds few regular nouns and infers a lone lower-case noun no differently from
// a name, so a tagged Person run of such a word passed nameLike (recognizers/tagger.ts). Kept: lower-case words of
// three letters or more that the list never capitalizes (not "Bush", "Booth", "Chandler": surnames and places),
// on no name list of the project (FIRST_NAMES, LAST_NAMES) and not already ordinary to compromise (COMMON_WORDS,
// STOP). Used as evidence against a name or an address only (recognizers/englishWords.ts), never as a feature of
// the model.
//
//   npx tsx scripts/english-words.ts [/usr/share/dict/american-english]
//
// SCOWL: Copyright 2000-2011 by Kevin Atkinson. Permission to use, copy, modify, distribute and sell these word
// lists, the associated scripts, the output created from the scripts, and its documentation for any purpose is
// hereby granted without fee, provided that the above copyright notice appears in all copies and that both that
// copyright notice and this permission notice appear in supporting documentation.
import fs from 'node:fs';
import path from 'node:path';
import { COMMON_WORDS, FIRST_NAMES, LAST_NAMES } from '../src/redact/recognizers/nameData.js';
import { STOP } from '../src/redact/recognizers/stopwords.js';
import { NAME_WORDS_FILE, WORDS_FILE } from '../src/redact/recognizers/englishWords.js';

const source = process.argv[2] ?? '/usr/share/dict/american-english';
const all = fs.readFileSync(source, 'utf8').split('\n').filter(Boolean);
const capitalized = new Set(all.filter((w) => /^\p{Lu}/u.test(w)).map((w) => w.toLowerCase()));
const words = all.filter((w) => /^[a-z]{3,}$/.test(w) && !capitalized.has(w) && !FIRST_NAMES.has(w) && !LAST_NAMES.has(w) && !COMMON_WORDS.has(w) && !STOP.has(w));
const header = `# English words no name list holds: scripts/english-words.ts, from SCOWL (Copyright 2000-2011 by Kevin Atkinson; see the script for the permission notice)\n`;
fs.writeFileSync(WORDS_FILE, header + [...new Set(words)].sort().join('\n') + '\n');
console.log(`${words.length} words -> ${path.relative(process.cwd(), WORDS_FILE)}`);
// and the given names that are also English words, said in lower case ("clay", "rob", "bill"): a name used as a
// noun or a verb ("clay soil", "rob me blind") is told by the words after it (recognizers/person.ts)
const nameWords = all.filter((w) => /^[a-z]{3,}$/.test(w) && FIRST_NAMES.has(w));
fs.writeFileSync(NAME_WORDS_FILE, header.replace('English words no name list holds', 'Given names that are also English words') + [...new Set(nameWords)].sort().join('\n') + '\n');
console.log(`${nameWords.length} words -> ${path.relative(process.cwd(), NAME_WORDS_FILE)}`);
