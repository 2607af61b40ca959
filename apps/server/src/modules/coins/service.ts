import { eq, sql } from 'drizzle-orm';
import { defaultDisplayDecimals, isStoredImageUrl } from '@pitboss/contract';
import type { Actor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { pgError } from '../ledger/errors.js';
import { FieldErrors, MAX_AMOUNT, requireAddress } from '../ledger/input.js';
import { assertBackOffice } from '../ledger/service.js';
import { ledgerAccounts } from '../ledger/table.js';
import { assertTwoApprovers } from '../approvals/service.js';
import { COIN_NETWORKS, COIN_STATUSES, coins, type CoinNetwork, type CoinRow, type CoinStatus } from './table.js';

export interface CoinInput {
  symbol: string;
  name: string;
  network?: CoinNetwork;
  /** Null for the network's native coin. */
  mintAddress?: string | null;
  decimals: number;
  /** Decimals tables show (0 to `decimals`); default `defaultDisplayDecimals` (at most 4). */
  displayDecimals?: number;
  logoUrl?: string;
  depositEnabled?: boolean;
  withdrawEnabled?: boolean;
  /** Minor units. */
  minWithdrawal?: bigint;
  /** Minor units, charged on top of the amount. */
  withdrawalFee?: bigint;
  /** Minor units; 0 = every withdrawal is reviewed. */
  autoApproveLimit?: bigint;
  /** Minor units per user over any 24 hours; null = no limit. */
  dailyWithdrawalLimit?: bigint | null;
  /** Minor units; null = no notification. */
  largeDepositThreshold?: bigint | null;
  /** Minor units; a withdrawal of at least this takes two admins. Null = one. */
  secondApprovalThreshold?: bigint | null;
  adjustmentApprovalThreshold?: bigint | null;
  status?: CoinStatus;
}
export type CoinPatch = Partial<CoinInput>;

/** What the audit log keeps of a coin (bigints become strings there). */
export const coinAuditView = (c: CoinRow) => {
  const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = c;
  return rest;
};

function checkCoin(errors: FieldErrors, input: CoinPatch, creating: boolean): Partial<typeof coins.$inferInsert> {
  const out: Partial<typeof coins.$inferInsert> = {};
  if (creating || input.symbol !== undefined) {
    const symbol = typeof input.symbol === 'string' ? input.symbol.trim().toUpperCase() : '';
    if (!/^[A-Z0-9]{2,10}$/.test(symbol)) errors.add('symbol', '2–10 letters or digits');
    out.symbol = symbol;
  }
  if (creating || input.name !== undefined) {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name || name.length > 60) errors.add('name', 'A name of 1–60 characters');
    out.name = name;
  }
  if (input.network !== undefined) {
    if (!COIN_NETWORKS.includes(input.network)) errors.add('network', `One of ${COIN_NETWORKS.join(', ')}`);
    out.network = input.network;
  }
  if (input.mintAddress !== undefined) out.mintAddress = input.mintAddress ? requireAddress(errors, input.mintAddress, 'mintAddress') : null;
  if (creating || input.decimals !== undefined) {
    if (!Number.isInteger(input.decimals) || input.decimals! < 0 || input.decimals! > 18) errors.add('decimals', 'A whole number from 0 to 18');
    out.decimals = input.decimals!;
  }
  if (input.displayDecimals !== undefined) {
    const d = input.displayDecimals;
    if (!Number.isInteger(d) || d < 0 || d > 18) errors.add('displayDecimals', 'A whole number from 0 to the coin’s decimals');
    out.displayDecimals = d;
  } else if (creating && typeof input.decimals === 'number' && Number.isInteger(input.decimals)) out.displayDecimals = defaultDisplayDecimals(input.decimals);
  if (out.displayDecimals !== undefined && out.decimals !== undefined && out.displayDecimals > out.decimals) {
    errors.add('displayDecimals', `At most the coin’s ${out.decimals} decimals`);
  }
  if (input.logoUrl !== undefined) {
    const url = input.logoUrl.trim();
    if (url && !isStoredImageUrl(url) && !/^https:\/\/[^\s/]+\/\S*$/.test(url)) errors.add('logoUrl', 'An uploaded image or an https:// address');
    out.logoUrl = url;
  }
  for (const key of ['minWithdrawal', 'withdrawalFee', 'autoApproveLimit'] as const) {
    const v = input[key];
    if (v === undefined) continue;
    if (typeof v !== 'bigint' || v < 0n || v > MAX_AMOUNT) errors.add(key, 'A whole number of minor units, 0 or more');
    out[key] = v;
  }
  for (const key of ['dailyWithdrawalLimit', 'largeDepositThreshold', 'secondApprovalThreshold', 'adjustmentApprovalThreshold'] as const) {
    const v = input[key];
    if (v === undefined) continue;
    if (v !== null && (typeof v !== 'bigint' || v <= 0n || v > MAX_AMOUNT)) errors.add(key, 'A whole number of minor units above 0, or none');
    out[key] = v;
  }
  if (input.depositEnabled !== undefined) out.depositEnabled = input.depositEnabled === true;
  if (input.withdrawEnabled !== undefined) out.withdrawEnabled = input.withdrawEnabled === true;
  if (input.status !== undefined) {
    if (!COIN_STATUSES.includes(input.status)) errors.add('status', 'active or inactive');
    out.status = input.status;
  }
  return out;
}

function coinConflict(err: unknown): never {
  const e = pgError(err);
  if (e?.code === '23505' && e.constraint === 'coins_symbol_uq') throw conflict('A coin with this symbol exists', { symbol: 'A coin with this symbol exists' });
  if (e?.code === '23505' && e.constraint === 'coins_mint_uq') {
    throw conflict('A coin with this mint address exists on this network', { mintAddress: 'A coin with this mint address exists on this network' });
  }
  throw err;
}

export async function createCoin(tx: DbOrTx, actor: Actor, input: CoinInput): Promise<CoinRow> {
  assertBackOffice(actor, 'manage coins');
  const errors = new FieldErrors();
  const values = checkCoin(errors, input, true);
  errors.throwIfAny();
  const row = await tx
    .insert(coins)
    .values(values as typeof coins.$inferInsert)
    .returning()
    .then((r) => r[0]!, coinConflict);
  await writeAudit(tx, actor, { action: 'create', resource: 'coins', recordId: row.id, after: coinAuditView(row) });
  return row;
}

/**
 * Changes a coin. Its decimals are fixed once the ledger has postings in it: changing them would
 * rescale every balance (1 SOL would become 0.001 SOL).
 */
export async function updateCoin(tx: DbOrTx, actor: Actor, id: number, patch: CoinPatch): Promise<CoinRow> {
  assertBackOffice(actor, 'manage coins');
  const errors = new FieldErrors();
  const set = checkCoin(errors, patch, false);
  errors.throwIfAny();
  const [before] = Number.isSafeInteger(id) ? await tx.select().from(coins).where(eq(coins.id, id)).for('update') : [];
  if (!before) throw notFound('Coin');
  // Two approvals need two admins who may give them: turning it on (or keeping it on) is refused otherwise.
  if (set.secondApprovalThreshold != null) await assertTwoApprovers(tx, 'Withdraw', 'approve', 'secondApprovalThreshold');
  if (set.adjustmentApprovalThreshold != null) await assertTwoApprovers(tx, 'Users', 'adjust-balance', 'adjustmentApprovalThreshold');
  if (set.decimals !== undefined && set.decimals !== before.decimals) {
    // Accounts exist only once something was posted to them (a small table, unlike the postings).
    const [used] = await tx.select({ one: sql<number>`1` }).from(ledgerAccounts).where(eq(ledgerAccounts.coinId, id)).limit(1);
    if (used) throw conflict('The decimals of a coin with ledger entries cannot change', { decimals: 'Fixed: the ledger has entries in this coin' });
  }
  // Tables show at most the coin's decimals: fewer decimals take the display down with them.
  const decimals = set.decimals ?? before.decimals;
  if (set.displayDecimals !== undefined && set.displayDecimals > decimals) {
    throw badRequest(`At most the coin’s ${decimals} decimals`, { displayDecimals: `At most the coin’s ${decimals} decimals` });
  }
  if (set.displayDecimals === undefined && before.displayDecimals > decimals) set.displayDecimals = decimals;
  const row = await tx
    .update(coins)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(coins.id, id))
    .returning()
    .then((r) => r[0]!, coinConflict);
  await writeAudit(tx, actor, { action: 'update', resource: 'coins', recordId: id, before: coinAuditView(before), after: coinAuditView(row) });
  return row;
}

export async function loadCoin(tx: DbOrTx, id: number): Promise<CoinRow> {
  const [row] = Number.isSafeInteger(id) ? await tx.select().from(coins).where(eq(coins.id, id)) : [];
  if (!row) throw notFound('Coin');
  return row;
}

export async function coinBySymbol(tx: DbOrTx, symbol: string): Promise<CoinRow | undefined> {
  const [row] = await tx.select().from(coins).where(eq(coins.symbol, symbol.toUpperCase()));
  return row;
}
