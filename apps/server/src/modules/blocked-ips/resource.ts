import {
  firstExceedingGrant, isSuperAdmin, type RestrictionEntry,
  blockedIpsResource, ERROR_CODES, 
} from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { admins, blockedIps, type blockedWallets, type whitelistWallets } from '../../db/schema.js';
import { AppError, badRequest, forbidden } from '../../http/errors.js';
import { iso, defineResource, type Row, type WriteContext } from '../../resources/define.js';
import type { SelectOf } from '../../resources/define.js';
import { cidrContains, normaliseCidr } from './guard.js';

const creator = alias(admins, 'creator');

/** Rows with the creating admin's email joined in. */
/** A row of a block or allow list with the email of the admin who added it. */
export type CreatorRow<T extends typeof blockedIps | typeof blockedWallets | typeof whitelistWallets> = T['$inferSelect'] & { createdByEmail: string | null };

export function withCreator<T extends typeof blockedIps | typeof blockedWallets | typeof whitelistWallets>(table: T): (db: DbOrTx) => SelectOf<CreatorRow<T>> {
  // The three tables share these columns; drizzle cannot type a select over a union of tables.
  const t = table as typeof blockedIps;
  return (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(t), createdByEmail: creator.email })
      .from(t)
      .leftJoin(creator, eq(creator.id, t.createdBy)) as unknown as SelectOf<CreatorRow<T>>;
}

/** How far back the addresses an admin used are protected from being blocked by someone below them. */
export const PROTECTED_ADDRESS_DAYS = 30;

interface AddressHit {
  ip: string;
  email: string;
  role: string;
  restriction: RestrictionEntry[];
  lastAt: Date;
}

/**
 * The addresses admins used in the last days that fall inside `cidr`: where they signed in, and
 * every address a session of theirs was used from (a laptop moving networks keeps both).
 */
async function recentAddressesWithin(tx: DbOrTx, cidr: string): Promise<AddressHit[]> {
  const since = sql`now() - make_interval(days => ${PROTECTED_ADDRESS_DAYS})`;
  const rows = await queryRows<{ ip: string; email: string; role: string; restriction: RestrictionEntry[]; last_at: Date | string }>(tx, sql`
    select u.ip, a.email, a.role, a.restriction, max(u.at) as last_at
    from (
      select h.admin_id, h.ip, h.created_at as at from login_history h where h.success and h.created_at > ${since}
      union all
      select x.admin_id, x.ip, x.last_seen_at as at from admin_session_addresses x where x.last_seen_at > ${since}
    ) u join admins a on a.id = u.admin_id
    group by u.ip, a.id, a.email, a.role, a.restriction`);
  return rows
    .filter((r) => r.ip && cidrContains(cidr, r.ip))
    .map((r) => ({ ip: r.ip, email: r.email, role: r.role, restriction: r.restriction ?? [], lastAt: new Date(r.last_at) }));
}

function describeHits(hits: AddressHit[]): string {
  const shown = hits.slice(0, 5).map((h) => `${h.ip} (${h.email}, last ${h.lastAt.toISOString().slice(0, 10)})`);
  return shown.join(', ') + (hits.length > shown.length ? ` and ${hits.length - shown.length} more` : '');
}

/**
 * The rules of a block (create or change of address):
 * - only a super admin blocks ranges wider than /16 (IPv4) or /32 (IPv6);
 * - a sub-admin cannot block an address an admin with more rights (a super admin, or an admin
 *   holding a right the sub-admin lacks) used within the last 30 days, to sign in or during a session:
 *   no lower admin can lock a higher one out;
 * - the caller's own address, and a super admin's recent addresses (the same two sources), need an
 *   explicit confirmation.
 */
async function prepareBlockedIp(input: Row, w: WriteContext): Promise<Row> {
  const out: Row = {};
  if (input.address !== undefined) {
    const cidr = normaliseCidr(String(input.address));
    if (!cidr) throw badRequest('Invalid address', { address: 'Enter an IPv4/IPv6 address or a CIDR range' });
    const actor = w.actor.admin;
    const prefix = Number(cidr.split('/')[1]);
    if (!isSuperAdmin(actor) && prefix < (cidr.includes(':') ? 32 : 16)) {
      throw forbidden('Only a super admin can block a range wider than /16 (IPv4) or /32 (IPv6)');
    }
    const hits = await recentAddressesWithin(w.tx, cidr);
    if (!isSuperAdmin(actor)) {
      const above = hits.filter((h) => h.role === 'superadmin' || firstExceedingGrant(actor, h.restriction) !== null);
      if (above.length) {
        throw forbidden(
          `${cidr} contains ${describeHits(above)}: an admin with more rights than you signed in or worked from there within the last ${PROTECTED_ADDRESS_DAYS} days. Ask a super admin.`,
        );
      }
    }
    const reasons: string[] = [];
    const fields: string[] = [];
    if (cidrContains(cidr, w.actor.ip)) {
      reasons.push(`your own address (${w.actor.ip}): you would lock yourself out`);
      fields.push(`Contains your own address ${w.actor.ip}`);
    }
    const supers = hits.filter((h) => h.role === 'superadmin' && h.ip !== w.actor.ip);
    if (supers.length) {
      reasons.push(`an address a super admin used in the last ${PROTECTED_ADDRESS_DAYS} days: ${describeHits(supers)}`);
      fields.push(`Contains a super admin's recent address ${supers[0]!.ip}`);
    }
    if (reasons.length && input.confirm !== true) {
      throw new AppError(409, ERROR_CODES.CONFIRM_REQUIRED, `${cidr} contains ${reasons.join('; and ')}. Confirm to block it anyway.`, { address: fields.join('; ') });
    }
    out.address = cidr;
  }
  if (input.reason !== undefined) out.reason = input.reason;
  return out;
}

export const blockedIpsDef = (onChange: () => void) =>
  defineResource({
    spec: blockedIpsResource,
    table: blockedIps,
    idColumn: blockedIps.id,
    columns: { address: blockedIps.address, createdAt: blockedIps.createdAt, updatedAt: blockedIps.updatedAt },
    searchColumns: [blockedIps.address, blockedIps.reason],
    select: withCreator(blockedIps),
    toRecord: (r: CreatorRow<typeof blockedIps>) => ({
      _id: String(r.id), address: r.address, reason: r.reason, createdByEmail: r.createdByEmail ?? null,
      createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
    }),
    prepareCreate: async (input, w) => ({ ...(await prepareBlockedIp(input, w)), createdBy: w.actor.admin.id }),
    prepareUpdate: (input, w) => prepareBlockedIp(input, w),
    uniqueErrors: { blocked_ips_address_uq: { field: 'address', message: 'This address or range is already blocked' } },
    afterWrite: onChange,
  });
