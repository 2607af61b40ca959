import { z } from 'zod';


/**
 * Users and money. Amounts are integer minor units of their coin (or fiat currency), sent as
 * strings of digits; each record also carries the amount formatted with its coin's decimals
 * (`amountText`), which is what lists show. States move only by the declared actions.
 */
export const units = z.string().regex(/^-?\d{1,30}$/);
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
 * Whether a code is an assigned ISO 3166-1 two-letter country or region ("FR", "XK"), as the
 * runtime's own region names know them: "ZZ" (unknown) and unassigned pairs ("QQ") are not.
 */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code)) return false;
  const name = regions.of(code);
  return name !== undefined && name !== 'Unknown Region';
}

/** Region codes the runtime names that are no country or territory: unions and groupings, test regions. */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB']);

let countries: readonly { code: string; name: string }[] | null = null;
/**
 * The countries and territories `isCountryCode` accepts, each once, with its English name, by name: a
 * country picker's choices. A former code the runtime still names (UK for GB, FX for FR, ZR for CD)
 * is left out for the current one, and so are the groupings (EU, UN) and test regions (XA).
 */
export function countryList(): readonly { code: string; name: string }[] {
  if (countries) return countries;
  const found: { code: string; name: string }[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (!isCountryCode(code) || NOT_COUNTRIES.has(code) || Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      found.push({ code, name: regions.of(code)! });
    }
  }
  countries = found.sort((x, y) => x.name.localeCompare(y.name, 'en'));
  return countries;
}
