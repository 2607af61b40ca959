import {
  ADJUSTMENT_REJECT_REASONS, ADJUSTMENT_REVERSAL_REASONS, BALANCE_ADJUSTMENT_REASONS, balanceAdjustmentStates, formatMoney, type ReasonCode, type ReasonInput,
} from '@pitboss/contract';
import { and, eq, ne } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { conflict, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { defineSubject, transition } from '../../resources/transition.js';
import { closeRejected, openApproval, recordFirstApproval, recordSecondApproval } from '../approvals/service.js';
import { coins } from '../coins/table.js';
import { FieldErrors, MAX_AMOUNT, requireReasonCode } from '../ledger/input.js';
import { assertBackOffice, balanceOf, postTransaction } from '../ledger/service.js';
import { users } from '../users/table.js';
import { balanceAdjustments, type BalanceAdjustmentRow } from './table.js';

/** What a two-admin adjustment waits for: Users › adjust-balance, held by a second admin. */
const SUBJECT = { resource: 'balance-adjustments', action: 'approve', restriction: 'Users', right: 'adjust-balance' } as const;

export const adjustmentAuditView = (a: BalanceAdjustmentRow) => ({
  userId: a.userId, coinId: a.coinId, amount: a.amount, status: a.status, reasonCode: a.reasonCode, reason: a.reason, requestedBy: a.requestedBy,
  decidedBy: a.decidedBy, decisionReasonCode: a.decisionReasonCode, decisionReason: a.decisionReason, transactionId: a.transactionId, reversesId: a.reversesId,
});

const adminId = (actor: Actor) => (actor.kind === 'admin' ? actor.admin.id : null);

export interface AdjustmentInput extends ReasonInput {
  userId: number;
  coin: number;
  /** Signed minor units: + credits, − debits. */
  amount: bigint;
}

export interface AdjustmentResult {
  adjustment: BalanceAdjustmentRow;
  /** The ledger transaction and the user's available balance after it; null while it waits for a second approval. */
  transactionId: number | null;
  available: bigint | null;
}

/** An adjustment's moves: through its declared machine, audited with `adjustmentAuditView`. */
export const adjustmentSubject = defineSubject({
  resource: 'balance-adjustments', table: balanceAdjustments, machine: balanceAdjustmentStates, view: adjustmentAuditView, label: 'Balance adjustment',
});

/** "Credit 1,500.000000 USDC to omar_s" / "Debit … from …": what the queue and the notification say. */
async function describe(tx: DbOrTx, a: Pick<BalanceAdjustmentRow, 'userId' | 'coinId' | 'amount'>): Promise<string> {
  const [row] = await tx.select({ symbol: coins.symbol, decimals: coins.decimals, username: users.username }).from(coins).innerJoin(users, eq(users.id, a.userId)).where(eq(coins.id, a.coinId));
  const moved = formatMoney(a.amount < 0n ? -a.amount : a.amount, row!.decimals, row!.symbol, { grouped: true });
  return a.amount < 0n ? `Debit ${moved} from ${row!.username}` : `Credit ${moved} to ${row!.username}`;
}

/**
 * Posts an adjustment to the ledger: user available ± amount against the platform's `adjustments`
 * account, ref `balance_adjustment`. A debit larger than the available balance is a 409 and nothing
 * changes.
 */
function post(tx: DbOrTx, actor: Actor, a: BalanceAdjustmentRow) {
  return postTransaction(tx, actor, {
    cause: 'adjustment',
    ref: { type: 'balance_adjustment', id: a.id },
    reasonCode: a.reasonCode,
    reason: a.reason,
    postings: [
      { account: { user: a.userId, bucket: 'available' }, coin: a.coinId, amount: a.amount },
      { account: { platform: 'adjustments' }, coin: a.coinId, amount: -a.amount },
    ],
  });
}

/** Audits an applied adjustment on the user as `adjust-balance` (so it shows in the user's history); returns the user's available balance after it. */
async function auditOnUser(tx: DbOrTx, actor: Actor, a: BalanceAdjustmentRow, transactionId: number): Promise<bigint> {
  // Read under the account lock postTransaction took: exact even with other postings in flight.
  const { available } = await balanceOf(tx, a.userId, a.coinId);
  const [coin] = await tx.select({ symbol: coins.symbol }).from(coins).where(eq(coins.id, a.coinId));
  // Amounts in minor units, like every money record in the audit log (bigints are written as strings).
  await writeAudit(tx, actor, {
    action: 'adjust-balance',
    resource: 'users',
    recordId: a.userId,
    before: { coinId: a.coinId, coin: coin!.symbol, available: available - a.amount },
    after: { coinId: a.coinId, coin: coin!.symbol, available, amount: a.amount, reasonCode: a.reasonCode, reason: a.reason, transactionId, adjustmentId: a.id },
  });
  return available;
}

/**
 * An adjustment under its coin's threshold, applied as it is created (in the request's
 * transaction: its `request` entry and the user's `adjust-balance` entry say so).
 */
async function applyAtOnce(tx: DbOrTx, actor: Actor, a: BalanceAdjustmentRow): Promise<AdjustmentResult> {
  const res = await post(tx, actor, a);
  const now = actor.at ?? new Date();
  const [row] = await tx.update(balanceAdjustments).set({ status: 'applied', transactionId: res.transactionId, updatedAt: now }).where(eq(balanceAdjustments.id, a.id)).returning();
  const available = await auditOnUser(tx, actor, a, res.transactionId);
  return { adjustment: row!, transactionId: res.transactionId, available };
}

/**
 * A manual correction of a user's available balance (signed), with a reason code of
 * `BALANCE_ADJUSTMENT_REASONS` (or of `ADJUSTMENT_REVERSAL_REASONS` for a reversal). Below the
 * coin's `adjustment_approval_threshold` (or when it has none) it is applied at once; at or above
 * it (by absolute amount) it is created `pending`: the asking admin's request is the first
 * approval, and another admin holding Users › adjust-balance applies it (`approveAdjustment`).
 */
export async function adjustBalance(
  tx: DbOrTx,
  actor: Actor,
  input: AdjustmentInput & { reversesId?: number },
): Promise<AdjustmentResult> {
  assertBackOffice(actor, 'adjust balances');
  const errors = new FieldErrors();
  if (typeof input.amount !== 'bigint' || input.amount === 0n) errors.add('amount', 'The amount must be a non-zero whole number of minor units');
  else if (input.amount > MAX_AMOUNT || -input.amount > MAX_AMOUNT) errors.add('amount', 'The amount is too large');
  const reasons: readonly ReasonCode[] = input.reversesId === undefined ? BALANCE_ADJUSTMENT_REASONS : ADJUSTMENT_REVERSAL_REASONS;
  const { reasonCode, note } = requireReasonCode(errors, input, reasons);
  const [coin] = Number.isSafeInteger(input.coin) ? await tx.select().from(coins).where(eq(coins.id, input.coin)) : [];
  if (!coin) errors.add('coin', 'No such coin');
  errors.throwIfAny();
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
  if (!user) throw notFound('User');

  const threshold = coin!.adjustmentApprovalThreshold;
  const size = input.amount < 0n ? -input.amount : input.amount;
  const twoAdmins = threshold !== null && size >= threshold && actor.kind === 'admin';
  const now = actor.at ?? new Date();
  const [row] = await tx
    .insert(balanceAdjustments)
    .values({
      userId: input.userId, coinId: coin!.id, amount: input.amount, status: 'pending', reasonCode, reason: note, requestedBy: adminId(actor),
      reversesId: input.reversesId ?? null, createdAt: now, updatedAt: now,
    })
    .returning();
  await writeAudit(tx, actor, { action: 'request', resource: 'balance-adjustments', recordId: row!.id, after: adjustmentAuditView(row!) });
  if (!twoAdmins) return applyAtOnce(tx, actor, row!);
  await recordFirstApproval(tx, actor, {
    ...SUBJECT, recordId: row!.id, summary: await describe(tx, row!), link: `/balance-adjustments?status=pending&userId=${row!.userId}`,
    notifyKind: 'adjustment_second_approval',
  });
  return { adjustment: row!, transactionId: null, available: null };
}

/**
 * The second approval of a pending adjustment: applies it. Refused (403) to the admin who asked;
 * the row lock makes two approvals at once apply it once (the second gets 409).
 */
export async function approveAdjustment(tx: DbOrTx, actor: Actor, id: number): Promise<AdjustmentResult> {
  assertBackOffice(actor, 'approve adjustments');
  const now = actor.at ?? new Date();
  let transactionId = 0;
  let available = 0n;
  const { after } = await transition(tx, actor, adjustmentSubject, id, 'approve', {
    check: async () => {
      const open = await openApproval(tx, { ...SUBJECT, recordId: id });
      if (open) await recordSecondApproval(tx, actor, open);
    },
    set: async (before) => {
      ({ transactionId } = await post(tx, actor, before));
      return { transactionId, decidedBy: adminId(actor), decidedAt: now, updatedAt: now };
    },
    effects: async (_row, before) => {
      available = await auditOnUser(tx, actor, before, transactionId);
    },
  });
  return { adjustment: after, transactionId, available };
}

/** Ends a pending adjustment unapplied, with a reason code (either admin: the one who asked withdraws it). */
export async function rejectAdjustment(tx: DbOrTx, actor: Actor, id: number, input: ReasonInput): Promise<BalanceAdjustmentRow> {
  assertBackOffice(actor, 'reject adjustments');
  const errors = new FieldErrors();
  const { reasonCode, note } = requireReasonCode(errors, input, ADJUSTMENT_REJECT_REASONS);
  errors.throwIfAny();
  const now = actor.at ?? new Date();
  const { after } = await transition(tx, actor, adjustmentSubject, id, 'reject', {
    check: () => closeRejected(tx, actor, { ...SUBJECT, recordId: id }),
    set: { decisionReasonCode: reasonCode, decisionReason: note, decidedBy: adminId(actor), decidedAt: now, updatedAt: now },
  });
  return after;
}

/**
 * Reverses an applied adjustment by a new one of the opposite amount pointing at it, under the
 * same threshold rule (pending at or above it). Refused (409) for one not applied, a reversal
 * itself, and one that already has a reversal that is not rejected.
 */
export async function reverseAdjustment(tx: DbOrTx, actor: Actor, id: number, input: ReasonInput): Promise<AdjustmentResult> {
  assertBackOffice(actor, 'reverse adjustments');
  const [original] = await tx.select().from(balanceAdjustments).where(eq(balanceAdjustments.id, id)).for('update');
  if (!original) throw notFound('Balance adjustment');
  if (original.status !== 'applied') throw conflict(`Adjustment is ${original.status}: only an applied adjustment can be reversed`);
  if (original.reversesId !== null) throw conflict('This adjustment is a reversal: adjust the balance again instead');
  const [live] = await tx
    .select({ id: balanceAdjustments.id, status: balanceAdjustments.status })
    .from(balanceAdjustments)
    .where(and(eq(balanceAdjustments.reversesId, id), ne(balanceAdjustments.status, 'rejected')));
  if (live) throw conflict(`Adjustment #${id} already has a ${live.status === 'pending' ? 'pending ' : ''}reversal (#${live.id})`);
  const result = await adjustBalance(tx, actor, { userId: original.userId, coin: original.coinId, amount: -original.amount, ...input, reversesId: id });
  await writeAudit(tx, actor, { action: 'reverse', resource: 'balance-adjustments', recordId: id, before: adjustmentAuditView(original), after: { ...adjustmentAuditView(original), reversedById: result.adjustment.id } });
  return result;
}
