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
sla ndc nda rma awb pnr eft rx otc
crv hrv gti amg srt
`
    .trim()
    .split(/\s+/),
);

/** Whether single-letter words `norms` spell an abbreviation ("h","d","m","i"). */
export const spellsAcronym = (norms: readonly string[]): boolean => norms.length >= 2 && norms.every((w) => /^[a-z]$/.test(w)) && ACRONYMS.has(norms.join(''));
