// Letters said one by one that spell an abbreviation, not a name: "d o b", "s s n", "h d m i", "v p n", "a t m".
// ASR writes an abbreviation as its letters, and callers say many of them on every call: a number's cue (their
// date of birth, social, PIN, ID), a device or a service (the SIM, the USB port, the VPN, the ISP). A spelling of
// exactly such letters is never taken for a name (spelled.ts, the tagger's runs); the number after a cue is still
// the number recognizers' to mask.

/** Abbreviations callers spell out, lower case, letters only. */
export const ACRONYMS = new Set(
  `
dob ssn sin pin id cvv cvc csc cid vin ein itin tin dl mrn npi upc sku imei iccid meid esn ssid
atm ach apr apy ira hsa fsa llc irs dmv ssa fbi usps ups dhl faq eta asap fyi tbd tba rsvp vip pto hoa
usb hdmi vpn sim tv pc isp gps dvd cd ip url pdf sms mms mfa otp sso dsl lan wan dns cpu gpu ram ssd hdd
led lcd hd uhd os ios ac hvac ev suv rv av dvr vcr nfc rfid wifi lte cdma gsm voip pbx ivr crm cpe ont
mri ekg ecg cpr icu er ent ob gyn pcp hmo ppo epo eob
usa uk eu nyc dc
abc nbc cbs cnn hbo espn bbc nfl nba nhl mlb amc tnt pbs
ceo cfo cto hr it qa pr ok am pm
usbc usba cpa md rn np dds dmd phd mba esq lpn cna
hdr oled qled vga dvi nas nvme sata wpa wps aux
`
    .trim()
    .split(/\s+/),
);

/**
 * Abbreviations that are also people's initials as often ("signed s r t", "n d c are my initials"): taken for the
 * abbreviation only where a thing's context is beside it ("the s l a is ...", "the n d c on the box", "r x six six
 * oh four ...", "a honda c r v") and no signing or spelling cue comes right before.
 */
export const THING_ACRONYMS = new Set('sla ndc nda rma awb pnr eft rx otc crv hrv gti amg srt'.split(' '));

/** Words before letters that make them someone's initials or a spelling, not an abbreviation. */
const INITIALS_CUE = /^(signed|sign|signs|signing|signature|initialed|initialled|initial|initials|spelled|spelt|spell|spelling|by|name|named|called)$/;
/** Words soon after letters that make them someone's initials ("s r t on the form is my signature", "the s r t initials"). */
const INITIALS_LATER = /^(initials|initial|initialed|signature|signed|sign|spelled|spell|name|named|me|myself|mine)$/;
/** Words after an abbreviation that say it is a thing ("the s l a is", "the n d c on the box", "the r x number"). */
const THING_AFTER =
  /^(is|was|on|of|for|number|numbers|no|code|codes|form|label|agreement|window|request|payment|payments|transfer|fee|fees|hours|days|says|said|shows|reads|drug|bottle|sticker|tag|trim|model|engine)$/;
/** Words before an abbreviation that make it a thing ("the s l a", "my n d a", "a honda c r v"). */
const THING_BEFORE = /^(the|a|an|my|your|our|their|this|that|these|those|honda|toyota|dodge|vw|volkswagen|chrysler|jeep|mercedes|benz|chevy|ford)$/;
const NUMBER_WORD = /^(\d.*|zero|oh|o|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|double|triple)$/;

/**
 * Whether letters spelling `spelt` between the words `before` and `after` (lower case) are an abbreviation: any of
 * ACRONYMS; one of THING_ACRONYMS only with a thing's context beside it and no initials' cue before it or in the
 * words `later` after it.
 */
export function acronymHere(spelt: string, before: string, after: string, later: readonly string[] = []): boolean {
  if (ACRONYMS.has(spelt)) return true;
  if (!THING_ACRONYMS.has(spelt) || INITIALS_CUE.test(before) || [after, ...later].some((w) => INITIALS_LATER.test(w))) return false;
  return THING_AFTER.test(after) || NUMBER_WORD.test(after) || THING_BEFORE.test(before);
}

/** Whether single-letter words `norms` spell an abbreviation ("h","d","m","i"). */
export const spellsAcronym = (norms: readonly string[]): boolean => norms.length >= 2 && norms.every((w) => /^[a-z]$/.test(w)) && ACRONYMS.has(norms.join(''));
