// The values slots are filled with, each in its written form and as said on a call (ASR form): names, addresses,
// emails, phone numbers (US, UK, Canada, India, Australia, Nigeria), dates of birth in many forms, postcodes (US
// ZIP, UK, Canada), card and social security numbers; and distractors that are not personal data (counts, times,
// amounts, places).
import type { EntityKind } from '../../src/redact/entityKinds.js';
import { chance, int, pick, type Rng } from './random.js';
import type { Place, Pools } from './sources.js';
import { asrForm, cardinal, digits, email as sayEmail, houseNumber, ordinal, spell, year } from './spoken.js';
import { DISTRACTORS } from './templates.js';

export interface Value {
  written: string;
  spoken: string;
  /** Gold kind, or none for a distractor. */
  kind?: EntityKind;
  /** Part of `written` / `spoken` that is gold when not all of it ("Mr. Okafor": the name only). */
  goldWritten?: [number, number];
  goldSpoken?: [number, number];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const spokenName = (s: string) => s.toLowerCase().replace(/[-’]/g, ' ').replace(/\s+/g, ' ').trim();
const ascii = (s: string) => s.normalize('NFD').replace(/[^\x00-\x7f]/g, '');

/** Letters spelled, digits said: "k one a zero b one" (postcodes). */
function alnum(r: Rng, s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((g) => g.split('').map((c) => (/\d/.test(c) ? digits(r, c, 'single') : c)).join(' '))
    .join(' ');
}

export class Values {
  constructor(
    private readonly r: Rng,
    private readonly pools: Pools,
  ) {}

  first(): string {
    return pick(this.r, this.pools.first);
  }
  last(): string {
    const r = this.r;
    return chance(r, 0.08) ? `${pick(r, this.pools.last).split(' ')[0]}-${pick(r, this.pools.last).split(' ')[0]}` : pick(r, this.pools.last);
  }
  name(which: 'first' | 'last' | 'full'): Value {
    const r = this.r;
    let s = which === 'first' ? this.first() : which === 'last' ? this.last() : `${this.first()}${chance(r, 0.1) ? ` ${this.first()}` : ''} ${this.last()}`;
    if (which === 'full' && chance(r, 0.05)) s = `${this.first()}-${this.first()} ${this.last()}`;
    return { written: s, spoken: spokenName(s), kind: 'Person' };
  }
  title(): Value {
    const r = this.r;
    const t = pick(r, ['Mr.', 'Mrs.', 'Ms.', 'Dr.', 'Miss', 'Mr', 'Ms']);
    const last = this.last();
    const said = { 'Mr.': 'mister', Mr: 'mister', 'Mrs.': 'missus', 'Ms.': 'miss', Ms: 'miss', 'Dr.': 'doctor', Miss: 'miss' }[t]!;
    const written = `${t} ${last}`;
    const spoken = `${said} ${spokenName(last)}`;
    return { written, spoken, kind: 'Person', goldWritten: [t.length + 1, written.length], goldSpoken: [said.length + 1, spoken.length] };
  }
  spelled(): Value {
    const r = this.r;
    const last = ascii(this.last()).replace(/[^A-Za-z]/g, '').slice(0, 10) || 'Smith';
    const letters = last.toUpperCase().split('');
    return { written: chance(r, 0.5) ? letters.join('-') : letters.join(' '), spoken: spell(r, last), kind: 'Person' };
  }
  place(): Place {
    return pick(this.r, this.pools.places);
  }
  /** A street address, with unit, city, region and postcode some of the time. */
  address(full = true): Value {
    const r = this.r;
    const p = this.place();
    let written = p.street;
    let spoken = this.sayStreet(p.street);
    if (full && chance(r, 0.25)) {
      const unit = `${pick(r, ['Apt', 'Apartment', 'Unit', 'Suite'])} ${int(r, 1, 40)}${chance(r, 0.3) ? pick(r, ['A', 'B', 'C']) : ''}`;
      written += `, ${unit}`;
      spoken += ` ${asrForm(r, unit)}`;
    }
    if (full && chance(r, 0.7)) {
      written += `, ${p.city}`;
      spoken += ` ${spokenName(p.city)}`;
      if (p.region) {
        written += `, ${p.region}`;
        spoken += ` ${p.region.length === 2 ? p.region.toLowerCase().split('').join(' ') : spokenName(p.region)}`;
      }
      if (chance(r, 0.6)) {
        written += ` ${p.postcode}`;
        spoken += ` ${this.sayPostcode(p.postcode)}`;
      }
    }
    return { written, spoken, kind: 'Address' };
  }
  street(): Value {
    const p = this.place();
    const name = p.street.replace(/\s*\b\d+[a-zA-Z]?\b\s*/g, ' ').replace(/,.*$/, '').trim();
    return { written: name, spoken: asrForm(this.r, name), kind: 'Address' };
  }
  private sayStreet(street: string): string {
    const r = this.r;
    return asrForm(r, street.replace(/\b\d+\b/g, (m) => ` ${houseNumber(r, Number(m))} `));
  }
  private sayPostcode(pc: string): string {
    return /[a-z]/i.test(pc) ? alnum(this.r, pc) : digits(this.r, pc.replace(/\D/g, ''), 'single');
  }
  email(): Value {
    const r = this.r;
    const f = ascii(this.first()).toLowerCase().replace(/[^a-z]/g, '') || 'sam';
    const l = ascii(this.last()).toLowerCase().replace(/[^a-z]/g, '') || 'lee';
    const local = pick(r, [`${f}.${l}`, `${f}${l}`, `${f}_${l}`, `${f[0]}${l}`, `${f}${int(r, 1, 99)}`, `${l}.${f}`, `${f}-${l}`, `${f}.${l}${int(r, 1, 9)}`]);
    const domain = chance(r, 0.6) ? pick(r, ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'aol.com', 'comcast.net', 'btinternet.com', 'yahoo.ca']) : pick(r, this.pools.domains);
    const e = `${local}@${domain}`;
    return { written: e, spoken: sayEmail(r, e), kind: 'Email' };
  }
  phone(): Value {
    const r = this.r;
    const d = (n: number) => Array.from({ length: n }, () => String(int(r, 0, 9))).join('');
    const area = `${int(r, 2, 9)}${d(2)}`;
    const ex = `${int(r, 2, 9)}${d(2)}`;
    const line = d(4);
    const forms: [string, string][] = [
      [`(${area}) ${ex}-${line}`, `${area}${ex}${line}`],
      [`${area}-${ex}-${line}`, `${area}${ex}${line}`],
      [`${area}.${ex}.${line}`, `${area}${ex}${line}`],
      [`+1 ${area} ${ex} ${line}`, `1${area}${ex}${line}`],
      [`07${d(3)} ${d(6)}`, ''],
      [`+44 20 ${d(4)} ${d(4)}`, ''],
      [`020 ${d(4)} ${d(4)}`, ''],
      [`+91 ${int(r, 7, 9)}${d(4)} ${d(5)}`, ''],
      [`04${d(2)} ${d(3)} ${d(3)}`, ''],
      [`+234 80${d(1)} ${d(3)} ${d(4)}`, ''],
    ];
    const [written] = pick(r, forms);
    const groups = written.replace(/[()]/g, '').split(/[\s.-]+/).filter(Boolean);
    const spoken = groups.map((g) => (g.startsWith('+') ? `plus ${digits(r, g.slice(1), 'single')}` : digits(r, g))).join(' ');
    return { written, spoken, kind: 'PhoneNumber' };
  }
  dob(): Value {
    const r = this.r;
    const y = int(r, 1940, 2005);
    const m = int(r, 1, 12);
    const dd = int(r, 1, 28);
    const mm = String(m).padStart(2, '0');
    const ds = String(dd).padStart(2, '0');
    const month = MONTHS[m - 1];
    const written = pick(r, [`${mm}/${ds}/${y}`, `${m}/${dd}/${y}`, `${ds}/${mm}/${y}`, `${cap(month)} ${dd}, ${y}`, `${dd} ${cap(month)} ${y}`, `${y}-${mm}-${ds}`, `${m}-${dd}-${String(y).slice(2)}`, `${cap(month)} ${ordinalSuffix(dd)}, ${y}`, `the ${ordinalSuffix(dd)} of ${cap(month)}, ${y}`]);
    const shortYear = () => (y % 100 < 10 ? `oh ${cardinal(y % 100)}` : cardinal(y % 100));
    const spoken = pick(r, [
      `${month} ${ordinal(dd)} ${year(y)}`,
      `${month} ${cardinal(dd)} ${year(y)}`,
      `the ${ordinal(dd)} of ${month} ${year(y)}`,
      `${ordinal(dd)} of ${month} ${shortYear()}`,
      `${cardinal(m)} ${cardinal(dd)} ${year(y)}`,
      `${cardinal(m)} ${cardinal(dd)} ${shortYear()}`,
      `${digits(r, mm, 'single')} ${digits(r, ds, 'single')} ${digits(r, String(y), 'single')}`,
      `${month} ${ordinal(dd)} ${shortYear()}`,
    ]);
    return { written, spoken, kind: 'DateOfBirth' };
  }
  zip(): Value {
    const r = this.r;
    const L = () => 'ABCEGHJKLMNPRSTVXY'[int(r, 0, 17)];
    const D = () => String(int(r, 0, 9));
    const written = pick(r, [
      `${int(r, 1, 9)}${D()}${D()}${D()}${D()}`,
      `${int(r, 1, 9)}${D()}${D()}${D()}${D()}-${D()}${D()}${D()}${D()}`,
      `${L()}${D()}${L()} ${D()}${L()}${D()}`,
      `${pick(r, ['SW', 'M', 'B', 'LS', 'EH', 'CF', 'G', 'NW', 'E', 'BS'])}${int(r, 1, 20)} ${D()}${L()}${L()}`,
    ]);
    return { written, spoken: /[A-Z]/.test(written) ? alnum(r, written) : digits(r, written.replace(/\D/g, '')), kind: 'ZipCode' };
  }
  card(): Value {
    const r = this.r;
    const prefix = pick(r, ['4', '51', '52', '55', '37', '6011']);
    const len = prefix === '37' ? 15 : 16;
    let s = prefix;
    while (s.length < len - 1) s += String(int(r, 0, 9));
    s += luhnDigit(s);
    const written = len === 15 ? `${s.slice(0, 4)} ${s.slice(4, 10)} ${s.slice(10)}` : chance(r, 0.7) ? s.match(/.{4}/g)!.join(chance(r, 0.5) ? ' ' : '-') : s;
    const spoken = (len === 15 ? [s.slice(0, 4), s.slice(4, 10), s.slice(10)] : s.match(/.{4}/g)!).map((g) => digits(r, g)).join(' ');
    return { written, spoken, kind: 'CreditCardNumber' };
  }
  ssn(): Value {
    const r = this.r;
    const a = String(int(r, 101, 665));
    const b = String(int(r, 10, 99));
    const c = String(int(r, 1000, 9999));
    return { written: chance(r, 0.8) ? `${a}-${b}-${c}` : `${a}${b}${c}`, spoken: `${digits(r, a)} ${digits(r, b)} ${digits(r, c)}`, kind: 'USSocialSecurityNumber' };
  }
  distractor(slot: string): Value {
    const r = this.r;
    switch (slot) {
      case 'n': {
        const n = int(r, 2, 45);
        return { written: String(n), spoken: cardinal(n) };
      }
      case 'time': {
        const h = int(r, 1, 12);
        const mi = pick(r, [0, 15, 30, 45]);
        const ap = pick(r, ['am', 'pm']);
        return { written: `${h}${mi ? `:${String(mi).padStart(2, '0')}` : ''} ${ap}`, spoken: `${cardinal(h)}${mi ? ` ${cardinal(mi)}` : ''} ${ap.split('').join(' ')}` };
      }
      case 'amount': {
        const d = int(r, 5, 400);
        const c = int(r, 0, 99);
        return { written: `$${d}.${String(c).padStart(2, '0')}`, spoken: `${cardinal(d)} dollars${c ? ` and ${cardinal(c)} cents` : ''}` };
      }
      default: {
        const list = (DISTRACTORS as Record<string, string[]>)[slot];
        if (!list) throw new Error(`unknown slot {${slot}}`);
        const v = pick(r, list);
        return { written: v, spoken: asrForm(r, v) };
      }
    }
  }
  fill(slot: string): Value {
    switch (slot) {
      case 'first':
      case 'last':
      case 'full':
        return this.name(slot);
      case 'title':
        return this.title();
      case 'spelled':
        return this.spelled();
      case 'address':
        return this.address();
      case 'street':
        return this.street();
      case 'email':
        return this.email();
      case 'phone':
        return this.phone();
      case 'dob':
        return this.dob();
      case 'zip':
        return this.zip();
      case 'card':
        return this.card();
      case 'ssn':
        return this.ssn();
      default:
        return this.distractor(slot);
    }
  }
}

function ordinalSuffix(n: number): string {
  const s = n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';
  return `${n}${s}`;
}

function luhnDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}
