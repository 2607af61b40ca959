import { z } from 'zod';
import { MAX_MINOR_UNITS, type ParseUnitsOptions } from '../units.js';


/**
 * Users and money. Amounts are integer minor units of their coin (or fiat currency), sent as
 * strings of digits; each record also carries the amount formatted with its coin's decimals
 * (`amountText`), which is what lists show. States move only by the declared actions.
 */
export const units = z.string().regex(/^-?\d{1,30}$/);

/**
 * An amount as the admin API takes it: whole minor units of its coin, a string of digits (`-` first
 * when `negative`), at most `MAX_MINOR_UNITS` (a ledger column's signed 64 bits), above zero unless
 * `zero`. The web's money fields convert what people type with `parseUnits`.
 */
export const minorUnitsInput = (what: string, options: ParseUnitsOptions = {}) => {
  const pattern = options.negative ? /^-?\d{1,19}$/ : /^\d{1,19}$/;
  const shape = options.negative ? 'A whole number of minor units, negative to debit' : 'A whole number of minor units';
  return z
    .string({ error: `${what} in minor units` })
    .trim()
    .regex(pattern, shape)
    .refine((v) => !pattern.test(v) || (BigInt(v) <= MAX_MINOR_UNITS && -BigInt(v) <= MAX_MINOR_UNITS), `At most ${MAX_MINOR_UNITS} minor units`)
    .refine((v) => !pattern.test(v) || options.zero || BigInt(v) !== 0n, options.negative ? 'Not zero' : 'Must be above zero');
};
export const reasonInput = z.object({ reason: z.string({ error: 'Give a reason' }).trim().min(3, 'Give a reason (at least 3 characters)').max(500, 'At most 500 characters') }).strict();
export const reasonField = { key: 'reason', label: 'Reason', type: 'textarea', required: true } as const;

/**
 * A link an admin may enter: a full http(s) URL, or a path of this site. A path never starts with
 * `//` or `/\\`, which browsers read as another host (`/\\evil.example` is `//evil.example`).
 */
export const isUrlOrSitePath = (v: string): boolean => /^https?:\/\/\S+$/i.test(v) || /^\/(?![/\\])\S*$/.test(v);

/** An instant as the API takes it: ISO 8601 with `Z` or an offset (the web form sends the admin's local time converted). */
export const isoTime = (label: string) =>
  z.iso.datetime({ offset: true, error: `${label}: a date and time (ISO 8601)` });

/** Tickers are upper-case letters and digits in dash- or dot-separated parts (`KXBTCW-26NOV28-T100000`); lower case is raised. */
export const ticker = (max: number) =>
  z
    .string({ error: 'Ticker is required' })
    .trim()
    .toUpperCase()
    .min(2, 'At least 2 characters')
    .max(max, `At most ${max} characters`)
    .regex(/^[A-Z0-9]+(?:[-.][A-Z0-9]+)*$/, 'Letters, digits, and - or . between them');

/** Ids of linked records (tags): distinct, at most `max`. */
export const idList = (label: string, max: number) =>
  z
    .array(z.string().regex(/^\d{1,18}$/, 'Invalid id'), { error: `${label}: a list of ids` })
    .max(max, `At most ${max}`)
    .refine((ids) => new Set(ids).size === ids.length, 'Listed twice');

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/**
 * The 249 officially assigned ISO 3166-1 alpha-2 codes: what a country field takes (a store, a
 * platform user). Not UK, EU, XK or the test regions, which the runtime's region names also know.
 */
const ISO_COUNTRIES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT ' +
  'BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ' +
  'ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT ' +
  'HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS ' +
  'LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI ' +
  'NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG ' +
  'SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');
const ISO_COUNTRY_SET = new Set(ISO_COUNTRIES);

/** Whether a code is one of the 249 assigned ISO 3166-1 two-letter country codes ("FR"; not "ZZ", "QQ" or "UK"). */
export function isCountryCode(code: string): boolean {
  return ISO_COUNTRY_SET.has(code);
}

let countries: readonly { code: string; name: string }[] | null = null;
/** Every code `isCountryCode` takes, with its English name (the runtime's), by name: a country picker's choices. */
export function countryList(): readonly { code: string; name: string }[] {
  countries ??= ISO_COUNTRIES.map((code) => ({ code, name: regions.of(code) ?? code })).sort((x, y) => x.name.localeCompare(y.name, 'en'));
  return countries;
}
