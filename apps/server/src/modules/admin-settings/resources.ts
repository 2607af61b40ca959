import {
  firstExceedingGrant, isSuperAdmin, type RestrictionEntry,
  blockedIpsResource, blockedWalletsResource, ERROR_CODES, faqsResource, supportCategoriesResource, tagsResource, whitelistWalletsResource,
} from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { admins, blockedIps, blockedWallets, faqs, supportCategories, tags, whitelistWallets } from '../../db/schema.js';
import { AppError, badRequest, conflict, forbidden } from '../../http/errors.js';
import { sanitizeRichText } from '../../lib/sanitize.js';
import { defineResource, isoOrNull, type ResourceDef, type Row, type WriteContext } from '../../resources/define.js';
import { cidrContains, normaliseCidr } from './blocked-ips.js';

const creator = alias(admins, 'creator');

/** Rows with the creating admin's email joined in. */
function withCreator(table: typeof blockedIps | typeof blockedWallets | typeof whitelistWallets) {
  return (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(table), createdByEmail: creator.email })
      .from(table)
      .leftJoin(creator, eq(creator.id, table.createdBy));
}

// ── Block IP ────────────────────────────────────────────────────────────────
/** How far back an admin's sign-in addresses are protected from being blocked by someone below them. */
export const PROTECTED_SIGN_IN_DAYS = 30;

interface SignInHit {
  ip: string;
  email: string;
  role: string;
  restriction: RestrictionEntry[];
  lastAt: Date;
}

/** Admins' successful sign-in addresses of the last days that fall inside `cidr`. */
async function recentSignInsWithin(tx: DbOrTx, cidr: string): Promise<SignInHit[]> {
  const rows = await queryRows<{ ip: string; email: string; role: string; restriction: RestrictionEntry[]; last_at: Date | string }>(tx, sql`
    select h.ip, a.email, a.role, a.restriction, max(h.created_at) as last_at
    from login_history h join admins a on a.id = h.admin_id
    where h.success and h.created_at > now() - make_interval(days => ${PROTECTED_SIGN_IN_DAYS})
    group by h.ip, a.id, a.email, a.role, a.restriction`);
  return rows
    .filter((r) => r.ip && cidrContains(cidr, r.ip))
    .map((r) => ({ ip: r.ip, email: r.email, role: r.role, restriction: r.restriction ?? [], lastAt: new Date(r.last_at) }));
}

function describeHits(hits: SignInHit[]): string {
  const shown = hits.slice(0, 5).map((h) => `${h.ip} (${h.email}, last ${h.lastAt.toISOString().slice(0, 10)})`);
  return shown.join(', ') + (hits.length > shown.length ? ` and ${hits.length - shown.length} more` : '');
}

/**
 * The rules of a block (create or change of address):
 * - only a super admin blocks ranges wider than /16 (IPv4) or /32 (IPv6);
 * - a sub-admin cannot block an address from which an admin with more rights (a super admin, or an
 *   admin holding a right the sub-admin lacks) signed in within the last 30 days: no lower admin can
 *   lock a higher one out;
 * - the caller's own address, and a super admin's recent addresses, need an explicit confirmation.
 */
async function prepareBlockedIp(input: Row, w: WriteContext): Promise<Row> {
  const out: Row = {};
  if (input.address !== undefined) {
    const cidr = normaliseCidr(String(input.address));
    if (!cidr) throw badRequest('Invalid address', { address: 'Enter an IPv4/IPv6 address or a CIDR range' });
    const actor = w.req.admin!;
    const prefix = Number(cidr.split('/')[1]);
    if (!isSuperAdmin(actor) && prefix < (cidr.includes(':') ? 32 : 16)) {
      throw forbidden('Only a super admin can block a range wider than /16 (IPv4) or /32 (IPv6)');
    }
    const hits = await recentSignInsWithin(w.tx, cidr);
    if (!isSuperAdmin(actor)) {
      const above = hits.filter((h) => h.role === 'superadmin' || firstExceedingGrant(actor, h.restriction) !== null);
      if (above.length) {
        throw forbidden(
          `${cidr} contains ${describeHits(above)}: an admin with more rights than you signed in from there within the last ${PROTECTED_SIGN_IN_DAYS} days. Ask a super admin.`,
        );
      }
    }
    const reasons: string[] = [];
    const fields: string[] = [];
    if (cidrContains(cidr, w.req.ip)) {
      reasons.push(`your own address (${w.req.ip}): you would lock yourself out`);
      fields.push(`Contains your own address ${w.req.ip}`);
    }
    const supers = hits.filter((h) => h.role === 'superadmin' && h.ip !== w.req.ip);
    if (supers.length) {
      reasons.push(`a super admin's sign-in address of the last ${PROTECTED_SIGN_IN_DAYS} days: ${describeHits(supers)}`);
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

export const blockedIpsDef = (onChange: () => void): ResourceDef =>
  defineResource({
    spec: blockedIpsResource,
    table: blockedIps,
    idColumn: blockedIps.id,
    columns: { address: blockedIps.address, createdAt: blockedIps.createdAt, updatedAt: blockedIps.updatedAt },
    searchColumns: [blockedIps.address, blockedIps.reason],
    select: withCreator(blockedIps),
    toRecord: (r) => ({
      _id: String(r.id), address: r.address, reason: r.reason, createdByEmail: r.createdByEmail ?? null,
      createdAt: isoOrNull(r.createdAt), updatedAt: isoOrNull(r.updatedAt),
    }),
    prepareCreate: async (input, w) => ({ ...(await prepareBlockedIp(input, w)), createdBy: w.req.admin!.id }),
    prepareUpdate: (input, w) => prepareBlockedIp(input, w),
    uniqueErrors: { blocked_ips_address_uq: { field: 'address', message: 'This address or range is already blocked' } },
    afterWrite: onChange,
  });

// ── Wallets ────────────────────────────────────────────────────────────────
/** An address is on one list or the other, never both: blocking and whitelisting the same wallet contradicts itself. */
function notOnOtherList(other: typeof blockedWallets | typeof whitelistWallets, otherName: string) {
  return async (input: Row, w: WriteContext): Promise<Row> => {
    if (input.address !== undefined) {
      const [hit] = await w.tx.select({ id: other.id }).from(other).where(eq(other.address, String(input.address))).limit(1);
      if (hit) throw conflict(`This wallet is on the ${otherName}; remove it there first`, { address: `Already on the ${otherName}` });
    }
    return input;
  };
}

function walletDef(spec: typeof blockedWalletsResource, table: typeof blockedWallets | typeof whitelistWallets, uq: string): ResourceDef {
  const other = table === blockedWallets ? whitelistWallets : blockedWallets;
  const check = notOnOtherList(other, table === blockedWallets ? 'whitelist' : 'block list');
  return defineResource({
    spec,
    table,
    idColumn: table.id,
    columns: { address: table.address, label: table.label, createdAt: table.createdAt },
    searchColumns: [table.address, table.label, table.reason],
    select: withCreator(table),
    toRecord: (r) => ({
      _id: String(r.id), address: r.address, label: r.label, reason: r.reason, createdByEmail: r.createdByEmail ?? null,
      createdAt: isoOrNull(r.createdAt), updatedAt: isoOrNull(r.updatedAt),
    }),
    prepareCreate: async (input, w) => ({ ...(await check(input, w)), createdBy: w.req.admin!.id }),
    prepareUpdate: check,
    uniqueErrors: { [uq]: { field: 'address', message: 'This wallet is already on the list' } },
  });
}
export const blockedWalletsDef = walletDef(blockedWalletsResource, blockedWallets, 'blocked_wallets_address_uq');
export const whitelistWalletsDef = walletDef(whitelistWalletsResource, whitelistWallets, 'whitelist_wallets_address_uq');

// ── FAQ ────────────────────────────────────────────────────────────────────
function prepareFaq(input: Row): Row {
  if (input.answer === undefined) return input;
  const answer = sanitizeRichText(String(input.answer));
  if (!answer.replace(/<[^>]*>/g, '').trim()) throw badRequest('Answer is required', { answer: 'The answer is empty once unsafe content is removed' });
  return { ...input, answer };
}

export const faqsDef = defineResource({
  spec: faqsResource,
  table: faqs,
  idColumn: faqs.id,
  columns: { question: faqs.question, category: faqs.category, sortOrder: faqs.sortOrder, status: faqs.status, updatedAt: faqs.updatedAt },
  searchColumns: [faqs.question, faqs.answer],
  toRecord: (r) => ({
    _id: String(r.id), question: r.question, answer: r.answer, category: r.category, sortOrder: r.sortOrder, status: r.status,
    createdAt: isoOrNull(r.createdAt), updatedAt: isoOrNull(r.updatedAt),
  }),
  prepareCreate: prepareFaq,
  prepareUpdate: prepareFaq,
  statusColumn: faqs.status,
});

// ── Tags ───────────────────────────────────────────────────────────────────
export function slugify(name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'tag';
}

export const tagsDef = defineResource({
  spec: tagsResource,
  table: tags,
  idColumn: tags.id,
  columns: { name: tags.name, slug: tags.slug, status: tags.status, createdAt: tags.createdAt },
  searchColumns: [tags.name, tags.slug],
  toRecord: (r) => ({ _id: String(r.id), name: r.name, slug: r.slug, status: r.status, createdAt: isoOrNull(r.createdAt), updatedAt: isoOrNull(r.updatedAt) }),
  prepareCreate: (input) => ({ ...input, slug: input.slug || slugify(String(input.name)) }),
  prepareUpdate: (input) => (input.slug === '' ? { ...input, slug: undefined } : input),
  uniqueErrors: {
    tags_name_uq: { field: 'name', message: 'A tag with this name exists' },
    tags_slug_uq: { field: 'slug', message: 'A tag with this slug exists' },
  },
  statusColumn: tags.status,
});

// ── Support category ───────────────────────────────────────────────────────
export const supportCategoriesDef = defineResource({
  spec: supportCategoriesResource,
  table: supportCategories,
  idColumn: supportCategories.id,
  columns: { name: supportCategories.name, sortOrder: supportCategories.sortOrder, status: supportCategories.status, createdAt: supportCategories.createdAt },
  searchColumns: [supportCategories.name],
  toRecord: (r) => ({
    _id: String(r.id), name: r.name, sortOrder: r.sortOrder, status: r.status, archivedAt: isoOrNull(r.archivedAt),
    createdAt: isoOrNull(r.createdAt), updatedAt: isoOrNull(r.updatedAt),
  }),
  archivedAtColumn: supportCategories.archivedAt,
  uniqueErrors: { support_categories_name_uq: { field: 'name', message: 'A category with this name exists (it may be archived)' } },
  statusColumn: supportCategories.status,
});
