// How a number written in digits may have been said, for the aligner's grammar: digit by digit ("four four
// seven one", with "oh" or "zero" for 0) and, for whole numbers below a million, as a cardinal ("four thousand
// four hundred seventy one"); four-digit numbers also as years ("nineteen ninety nine"). Separators ($ , . - /)
// are not spoken in the digit form. Numbers matter most here: they are what redaction removes from the audio.

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function belowHundred(n: number): string[] {
  if (n < 20) return [ONES[n]];
  return n % 10 === 0 ? [TENS[Math.floor(n / 10)]] : [TENS[Math.floor(n / 10)], ONES[n % 10]];
}

function belowThousand(n: number): string[] {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  return [...(hundreds > 0 ? [ONES[hundreds], 'hundred'] : []), ...(rest > 0 || hundreds === 0 ? belowHundred(rest) : [])];
}

/** 4471 → four thousand four hundred seventy one (n < 1e6). */
export function cardinalWords(n: number): string[] {
  if (n < 1000) return belowThousand(n);
  const thousands = Math.floor(n / 1000);
  const rest = n % 1000;
  return [...belowThousand(thousands), 'thousand', ...(rest > 0 ? belowThousand(rest) : [])];
}

/**
 * Word sequences the token may have been spoken as, or undefined when it is not a number. Each sequence uses
 * only words in any English pronunciation dictionary; "(oh|zero)" choices are given as their own sequences
 * only for the first form to keep the grammar small: 0 is "oh" in digit strings, "zero" when alone.
 */
export function spokenForms(token: string): string[][] | undefined {
  if (!/^[$£€]?\d[\d,.\-/:]*%?$/.test(token)) return undefined;
  const digits = token.replace(/\D/g, '');
  if (digits.length === 0 || digits.length > 24) return undefined;
  const forms: string[][] = [[...digits].map((d) => (d === '0' && digits.length > 1 ? 'oh' : ONES[Number(d)]))];
  if (digits.includes('0') && digits.length > 1) forms.push([...digits].map((d) => ONES[Number(d)]));
  if (/^\d+$/.test(token.replace(/^[$£€]/, '').replace(/,/g, '')) && digits.length <= 6 && !/^0\d/.test(digits)) {
    const n = Number(digits);
    const cardinal = cardinalWords(n);
    if (cardinal.join(' ') !== forms[0].join(' ')) forms.push(cardinal);
    if (digits.length === 4 && n % 100 !== 0 && Math.floor(n / 100) >= 10) forms.push([...belowHundred(Math.floor(n / 100)), ...(n % 100 < 10 ? ['oh', ONES[n % 100]] : belowHundred(n % 100))]);
  }
  return forms;
}
