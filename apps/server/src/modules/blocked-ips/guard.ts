import { BlockList } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Db } from '../../db/client.js';
import { blockedIps } from '../../db/schema.js';

/** `203.0.113.7` → `203.0.113.7/32`; `198.51.100.9/24` → `198.51.100.0/24`; IPv4-mapped IPv6 → IPv4. Null when invalid. */
export function normaliseCidr(input: string): string | null {
  try {
    const [addrText, prefixText] = input.trim().split('/');
    let addr = ipaddr.parse(addrText!);
    let prefix = prefixText === undefined ? (addr.kind() === 'ipv4' ? 32 : 128) : Number(prefixText);
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
      addr = (addr as ipaddr.IPv6).toIPv4Address();
      prefix = prefixText === undefined ? 32 : Math.max(0, prefix - 96);
    }
    const max = addr.kind() === 'ipv4' ? 32 : 128;
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return null;
    const network = addr.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${addr.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${addr.toString()}/${prefix}`);
    return `${network.toString()}/${prefix}`;
  } catch {
    return null;
  }
}

/** The caller's address as ipaddr sees it (IPv4-mapped IPv6 turned into IPv4). */
export function normaliseIp(ip: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  try {
    const a = ipaddr.process(ip);
    return { address: a.toString(), family: a.kind() };
  } catch {
    return null;
  }
}

export function cidrContains(cidr: string, ip: string): boolean {
  const target = normaliseIp(ip);
  if (!target) return false;
  const [net, prefix] = cidr.split('/');
  const list = new BlockList();
  list.addSubnet(net!, Number(prefix), net!.includes(':') ? 'ipv6' : 'ipv4');
  return list.check(target.address, target.family);
}

/**
 * Blocked addresses, enforced on every API request. Cached for a few seconds
 * (other instances pick up a change within that time) and refreshed at once
 * after a write in this process.
 */
export class BlockedIpGuard {
  private list: BlockList | null = null;
  /** Verdicts of the current list by caller address (parsing an address costs more than the check): dropped with the list. */
  private verdicts = new Map<string, boolean>();
  private loadedAt = 0;
  private loading: Promise<BlockList> | null = null;
  /** Bumped by every invalidation: a load that started before it must not be taken as fresh. */
  private generation = 0;

  constructor(private readonly db: Db, private readonly ttlMs = 5_000) {}

  invalidate(): void {
    this.generation++;
    this.loadedAt = 0;
    this.loading = null;
  }

  private async load(): Promise<BlockList> {
    const generation = this.generation;
    const rows = await this.db.select({ address: blockedIps.address }).from(blockedIps);
    const list = new BlockList();
    for (const r of rows) {
      const [net, prefix] = r.address.split('/');
      list.addSubnet(net!, Number(prefix), net!.includes(':') ? 'ipv6' : 'ipv4');
    }
    this.list = list;
    this.verdicts = new Map();
    this.loadedAt = generation === this.generation ? Date.now() : 0;
    return list;
  }

  async isBlocked(ip: string): Promise<boolean> {
    if (!this.list || Date.now() - this.loadedAt > this.ttlMs) {
      this.loading ??= this.load().finally(() => (this.loading = null));
      await this.loading;
    }
    const known = this.verdicts.get(ip);
    if (known !== undefined) return known;
    const target = normaliseIp(ip);
    const blocked = target ? this.list!.check(target.address, target.family) : false;
    if (this.verdicts.size >= 10_000) this.verdicts.clear();
    this.verdicts.set(ip, blocked);
    return blocked;
  }
}
