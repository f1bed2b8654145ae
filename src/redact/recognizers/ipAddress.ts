// IP addresses: written IPv4/IPv6, and spoken IPv4 ("one nine two dot one six eight dot one dot one", "... point
// ..."). A version number of the same shape ("version 10.4.2.118", "firmware four point one point two point
// nine") is a thing's, not an address.
import { fromChars, fromWords, type Doc, type Recognizer } from './doc.js';
import type { Detection } from '../types.js';
import { digitsOf } from './digitRuns.js';

const V4 = /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.]*\d)/g;
const V6 = /(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:])/gi;
/** Said between the octets: "dot", or "point" as a decimal point is read. */
const DOT = /^(dot|point)$/;
/** What names a version, not an address. A lone "v" does not: "V 73.22.118.4" is as likely an address read out. */
const VERSION = /^(version|ver|build|firmware|release|patch)$/;
/** What names an address: "my IP", "IPv4" (read "ipv" "4"), "IP address". An IP's cue near the number keeps it one, version or not. */
const IP_CUE = /^(ip|ips|ip's|ipv|ipv4|ipv6|i\.p\.|address|addr)$/;
/** Words looked at for an IP's cue, before the number and after it. */
const IP_CUE_WINDOW = 6;
/** What may come between that name and the number: "version is", "version number", "build no.". */
const VERSION_GAP = /^(is|was|number|no|now|it's|its|#)$/;

/** An IP's cue within IP_CUE_WINDOW words before word `start` or after word `end` (exclusive): "my IP, version 10.0.0.5". */
function ipCueNear(doc: Doc, start: number, end: number): boolean {
  const from = Math.max(0, start - IP_CUE_WINDOW);
  const to = Math.min(doc.words.length, end + IP_CUE_WINDOW);
  for (let k = from; k < to; k++) if ((k < start || k >= end) && IP_CUE.test(doc.words[k].norm.replace(/[^a-z0-9'.]/g, ''))) return true;
  return false;
}

/** A version's name just before word i ("version 10.4.2.118", "firmware version is ..."), and no IP's cue near. */
function versionOnly(doc: Doc, start: number, end: number): boolean {
  return versionBefore(doc, start) && !ipCueNear(doc, start, end);
}

/** A version's name just before word i ("version 10.4.2.118", "firmware version is ..."). */
function versionBefore(doc: Doc, i: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 3); k--) {
    const w = doc.words[k].norm;
    if (VERSION.test(w)) return true;
    if (!VERSION_GAP.test(w)) return false;
  }
  return false;
}

/** What names a subnet mask: "the subnet mask is", "netmask", "mask 255.255.255.0". */
const MASK = /^(mask|netmask|subnet)$/;

/**
 * A subnet mask: 255 first and its bits contiguous (255.255.255.0, 255.255.240.0), said right after a mask's name
 * ("the subnet mask is ..."): no host has that address. Without the name, or of another shape, it stays an IP.
 */
export function maskOnly(doc: Doc, start: number, octets: readonly number[]): boolean {
  if (octets.length !== 4 || octets[0] !== 255) return false;
  const bits = octets.map((o) => o.toString(2).padStart(8, '0')).join('');
  if (!/^1+0*$/.test(bits)) return false;
  for (let k = start - 1; k >= Math.max(0, start - 3); k--) {
    const w = doc.words[k].norm;
    if (MASK.test(w)) return true;
    if (!VERSION_GAP.test(w)) return false;
  }
  return false;
}

/** What names a newer or older version after one already named: "firmware 3.12.4.1, the latest is 3.14.0.2". */
const OTHER_VERSION = /^(latest|newest|current|previous|older|newer|new|old|stable|recent)$/;
/** All that may be said between a version and the next ("and the newest one is"): no other thing's noun ("the new server is"). */
const BETWEEN_VERSIONS = /^(the|a|latest|newest|current|previous|older|newer|new|old|stable|recent|one|is|was|it's|its|and|but|while|so|now|version|release|build|firmware|out|available|there's|theres)$/;
/** Words between a version and the next one, at most: ", the latest is", "and the newest one is". */
const OTHER_VERSION_GAP = 6;

/** A second version's numbers after its major one, at most each (3.14.0.2; not 3.99.201.17, a host's maybe). */
const MINOR_MAX = 99;
/** A network's things named after a second version: it may be an address on it ("... is 3.9.20.17 on my network"). */
const NETWORK_AFTER = /^(network|networks|ip|ips|ipv4|router|host|hostname|server|wifi|wi-fi|address|addr|gateway|modem|lan|dns|subnet|static|dhcp|device|machine|computer|laptop|pc)$/;
/** How far apart the major numbers of two versions of one thing are, at most (3.12.4.1, then 3.14.0.2 or 4.0.0.1). */
const MAJOR_STEP = 1;

/**
 * A second version after a version named so (versionOnly): "the latest is ..." within OTHER_VERSION_GAP words of
 * the first, nothing but words between (no other number), its major number near the first's (3.12.4.1, 3.14.0.2),
 * and no IP's cue near either.
 */
function nextVersion(doc: Doc, start: number, end: number, octets: readonly number[], versions: readonly { end: number; major: number }[]): boolean {
  const last = versions.filter((v) => v.end <= start).pop();
  const major = octets[0];
  if (last === undefined || start - last.end > OTHER_VERSION_GAP || Math.abs(major - last.major) > MAJOR_STEP || ipCueNear(doc, start, end)) return false;
  // a version's minor numbers are small ("3.14.0.2"); an octet over MINOR_MAX ("3.99.201.17") may be a host's
  if (octets.slice(1).some((o) => o > MINOR_MAX)) return false;
  // a network's thing named after it ("... is 3.99.20.17 on my network"): an address
  for (let k = end; k < Math.min(doc.words.length, end + IP_CUE_WINDOW); k++) if (NETWORK_AFTER.test(doc.words[k].norm.replace(/[^a-z0-9-]/g, ''))) return false;
  let named = false;
  for (let k = last.end; k < start; k++) {
    const w = doc.words[k].norm;
    if (!BETWEEN_VERSIONS.test(w)) return false;
    named ||= OTHER_VERSION.test(w);
  }
  return named;
}

/** Token i is a number an octet can be (0-255, at most three digits). */
function octet(t: Doc['tokens'], i: number): boolean {
  const d = digitsOf(t[i], false);
  return d !== undefined && d.length <= 3 && Number(d) <= 255;
}
const dot = (t: Doc['tokens'], i: number) => DOT.test(t[i].text);

export const ipAddressRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  /** Where each number named a version ends (word index): the next may be "the latest". */
  const versions: { end: number; major: number }[] = [];
  const notAddress = (start: number, end: number, octets: readonly number[]): boolean => {
    if (versionOnly(doc, start, end) || nextVersion(doc, start, end, octets, versions)) {
      versions.push({ end, major: octets[0] });
      return true;
    }
    return maskOnly(doc, start, octets);
  };
  for (const m of doc.text.matchAll(V4)) {
    const d = fromChars(doc, 'IPAddress', m.index!, m.index! + m[0].length, 0.9, 'ip-address');
    if (d.wordStart === undefined || d.wordEnd === undefined || !notAddress(d.wordStart, d.wordEnd, m[0].split('.').map(Number))) out.push(d);
  }
  for (const m of doc.text.matchAll(V6)) {
    if (((m[0].match(/:/g) ?? []).length >= 3 || m[0].includes('::')) && /[0-9a-f]{2}/i.test(m[0]) && !/^\d{1,2}(:\d{2}){1,2}$/.test(m[0])) out.push(fromChars(doc, 'IPAddress', m.index!, m.index! + m[0].length, 0.8, 'ip-address'));
  }
  // spoken: N dot N dot N dot N over numtrans tokens
  const t = doc.tokens;
  for (let i = 0; i + 6 < t.length; i++) {
    if (octet(t, i) && dot(t, i + 1) && octet(t, i + 2) && dot(t, i + 3) && octet(t, i + 4) && dot(t, i + 5) && octet(t, i + 6)) {
      const octets = [i, i + 2, i + 4, i + 6].map((k) => Number(digitsOf(t[k], false)));
      if (!notAddress(t[i].wordStart, t[i + 6].wordEnd, octets)) out.push(fromWords(doc, 'IPAddress', t[i].wordStart, t[i + 6].wordEnd, 0.9, 'ip-address'));
      i += 6;
    }
  }
  return out;
};
