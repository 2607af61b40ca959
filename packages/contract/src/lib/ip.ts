/**
 * IPv4 / IPv6 address or CIDR range, syntax only (the server normalises and
 * matches with ipaddr.js). Kept dependency-free so the browser can use it.
 */
const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isV6(value: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(value) || value.length > 45) return false;
  const dbl = value.split('::');
  if (dbl.length > 2) return false;
  let tail = value;
  let v4Groups = 0;
  const lastColon = value.lastIndexOf(':');
  const maybeV4 = value.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    if (!V4.test(maybeV4)) return false;
    v4Groups = 2;
    tail = value.slice(0, lastColon + 1) + (value.endsWith('::') ? '' : '0');
  }
  const groups = tail.split(':').filter((g, i, arr) => !(g === '' && (i === 0 || i === arr.length - 1 || dbl.length === 2)));
  if (!groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  const count = groups.length - (v4Groups ? 1 : 0) + v4Groups;
  return dbl.length === 2 ? count < 8 : count === 8;
}

export function ipVersion(value: string): 4 | 6 | null {
  if (V4.test(value)) return 4;
  if (isV6(value)) return 6;
  return null;
}

export function isIpOrCidr(value: string): boolean {
  const [addr, prefix, extra] = value.split('/');
  if (extra !== undefined || !addr) return false;
  const v = ipVersion(addr);
  if (!v) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (v === 4 ? 32 : 128);
}
