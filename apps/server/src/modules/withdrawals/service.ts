import { formatMoney, SECOND_APPROVAL_STATE, WITHDRAWAL_FAIL_REASONS, WITHDRAWAL_REJECT_REASONS, withdrawalStates, type ReasonInput } from '@pitboss/contract';
import { closeRejected, openApproval, recordFirstApproval, recordSecondApproval } from '../approvals/service.js';
import { and, eq, gt, notInArray, sql } from 'drizzle-orm';
import { systemActor, type Actor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { blockedWallets, whitelistWallets } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { coins } from '../coins/table.js';
import { isUniqueViolation } from '../ledger/errors.js';
import { FieldErrors, MAX_AMOUNT, formatUnits, requireAddress, requirePositive, requireReasonCode, requireTxSignature } from '../ledger/input.js';
import { assertBackOffice, postTransaction, type PostingInput } from '../ledger/service.js';
import { defineSubject, lockFor, transition, type Locked } from '../../resources/transition.js';
import { loadSiteSettings } from '../site-settings/service.js';
import { users } from '../users/table.js';
import { withdrawals, type WithdrawalRow } from './table.js';
import { mailWithdrawalApproved, mailWithdrawalRejected } from '../../mail/user-mail.js';


/** Who approves a whitelisted withdrawal under the limit. */
export const AUTO_APPROVE_ACTOR = systemActor('withdrawal-auto-approve');

export const withdrawalAuditView = (w: WithdrawalRow) => ({
  userId: w.userId, coinId: w.coinId, amount: w.amount, fee: w.fee, toAddress: w.toAddress, status: w.status,
  autoApproved: w.autoApproved, reviewedBy: w.reviewedBy, reasonCode: w.reasonCode, reason: w.reason, txSignature: w.txSignature,
});

/** A withdrawal's moves: through its declared machine, audited with `withdrawalAuditView`. */
export const withdrawalSubject = defineSubject({ resource: 'withdrawals', table: withdrawals, machine: withdrawalStates, view: withdrawalAuditView });

const adminId = (actor: Actor) => (actor.kind === 'admin' ? actor.admin.id : null);
const isBlockedAddress = async (tx: DbOrTx, address: string) =>
  (await tx.select({ id: blockedWallets.id }).from(blockedWallets).where(eq(blockedWallets.address, address)).limit(1)).length > 0;
const isWhitelisted = async (tx: DbOrTx, address: string) =>
  (await tx.select({ id: whitelistWallets.id }).from(whitelistWallets).where(eq(whitelistWallets.address, address)).limit(1)).length > 0;

/** available → held (amount + fee), or back. */
const holdPostings = (w: WithdrawalRow, sign: 1n | -1n): PostingInput[] => [
  { account: { user: w.userId, bucket: 'available' }, coin: w.coinId, amount: -sign * (w.amount + w.fee) },
  { account: { user: w.userId, bucket: 'held' }, coin: w.coinId, amount: sign * (w.amount + w.fee) },
];

export interface RequestWithdrawalInput {
  userId: number;
  coin: number;
  /** What the user receives, in the coin's minor units; the coin's fee is held on top. */
  amount: bigint;
  toAddress: string;
}

/**
 * A user's withdrawal request. Refused (400, with the field) for a blocked user, an inactive or
 * withdraw-disabled coin, an amount under the coin's minimum, a destination on the blocked-wallet
 * list; refused (409) while site settings turn withdrawals off. Holds amount + fee (available →
 * held) in the same transaction: concurrent requests queue on the user's account row and the
 * balance CHECK refuses the one that would overdraw (409 "Insufficient balance").
 *
 * Refused (409, on `amount`) when the user's requests in this coin over the last 24 hours
 * (rejected and failed ones aside), this one included, would pass the coin's daily limit. The sum
 * is read after the hold, which queues concurrent requests of the user in this coin on their
 * account row: two requests at once cannot both slip under the limit.
 *
 * A whitelisted destination with amount ≤ the coin's auto-approve limit (0 = never) is approved
 * at once by the system actor `withdrawal-auto-approve`.
 */
export async function requestWithdrawal(tx: DbOrTx, actor: Actor, input: RequestWithdrawalInput): Promise<WithdrawalRow> {
  const settings = await loadSiteSettings(tx);
  if (!settings.withdrawalsEnabled) throw conflict('Withdrawals are turned off for now');
  const errors = new FieldErrors();
  const amount = requirePositive(errors, input.amount);
  const toAddress = requireAddress(errors, input.toAddress, 'toAddress');
  const [coin] = Number.isSafeInteger(input.coin) ? await tx.select().from(coins).where(eq(coins.id, input.coin)) : [];
  if (!coin) errors.add('coin', 'No such coin');
  else if (coin.status !== 'active' || !coin.withdrawEnabled) errors.add('coin', `Withdrawals of ${coin.symbol} are turned off`);
  else if (amount > 0n && amount < coin.minWithdrawal) {
    errors.add('amount', `The minimum withdrawal is ${formatUnits(coin.minWithdrawal, coin.decimals)} ${coin.symbol}`);
  } else if (amount + coin.withdrawalFee > MAX_AMOUNT) errors.add('amount', 'The amount is too large');
  // FOR SHARE: a block committed while this request runs waits for it, and a request never
  // starts on a user whose block is in flight.
  const [user] = Number.isSafeInteger(input.userId) ? await tx.select().from(users).where(eq(users.id, input.userId)).for('share') : [];
  if (!user) throw notFound('User');
  if (user.status === 'blocked') errors.add('userId', 'This user is blocked and cannot withdraw');
  if (toAddress && !errors.errors.toAddress && (await isBlockedAddress(tx, toAddress))) errors.add('toAddress', 'This address is blocked');
  errors.throwIfAny();

  const [row] = await tx
    .insert(withdrawals)
    .values({ userId: user.id, coinId: coin!.id, amount, fee: coin!.withdrawalFee, toAddress })
    .returning();
  await postTransaction(tx, actor, { cause: 'withdrawal_hold', ref: { type: 'withdrawal', id: row!.id }, postings: holdPostings(row!, 1n) });
  if (coin!.dailyWithdrawalLimit !== null) {
    const [{ total } = { total: 0n }] = await tx
      .select({ total: sql<string>`coalesce(sum(${withdrawals.amount}), 0)`.mapWith(BigInt) })
      .from(withdrawals)
      .where(and(eq(withdrawals.userId, user.id), eq(withdrawals.coinId, coin!.id), gt(withdrawals.createdAt, sql`now() - interval '24 hours'`), notInArray(withdrawals.status, ['rejected', 'failed'])));
    if (total > coin!.dailyWithdrawalLimit) {
      const limitText = `${formatUnits(coin!.dailyWithdrawalLimit, coin!.decimals)} ${coin!.symbol}`;
      const before = `${formatUnits(total - amount, coin!.decimals)} ${coin!.symbol}`;
      throw conflict(`Over the daily withdrawal limit of ${limitText}: ${before} requested in the last 24 hours`, { amount: `At most ${limitText} a day; ${before} already requested` });
    }
  }
  await writeAudit(tx, actor, { action: 'request', resource: 'withdrawals', recordId: row!.id, after: withdrawalAuditView(row!) });

  const limit = coin!.autoApproveLimit;
  if (limit > 0n && amount <= limit && (await isWhitelisted(tx, toAddress))) {
    return approve(tx, AUTO_APPROVE_ACTOR, await lockFor(tx, withdrawalSubject, row!.id, 'approve'), true);
  }
  return row!;
}

type LockedWithdrawal = Locked<typeof withdrawals, WithdrawalRow['status'], keyof typeof withdrawalStates.transitions>;

async function approve(tx: DbOrTx, actor: Actor, locked: LockedWithdrawal, auto: boolean): Promise<WithdrawalRow> {
  const now = new Date();
  return locked.apply(actor, {
    action: 'approve',
    set: { autoApproved: auto, reviewedBy: adminId(actor), reviewedAt: now, updatedAt: now },
    // The user hears of it (by an admin or automatically), in this transaction.
    effects: (row) => mailWithdrawalApproved(tx, row),
  });
}

/** A withdrawal as the approval queue says it: "Withdrawal of 8,432.23 USDC to omar_s". */
async function approvalSummary(tx: DbOrTx, w: WithdrawalRow): Promise<string> {
  const [row] = await tx.select({ symbol: coins.symbol, decimals: coins.decimals, username: users.username }).from(coins).innerJoin(users, eq(users.id, w.userId)).where(eq(coins.id, w.coinId));
  return `Withdrawal of ${formatMoney(w.amount, row!.decimals, row!.symbol, { grouped: true })} to ${row!.username}`;
}

/**
 * Approves a requested withdrawal (no money moves: it stays held until completed). The row is
 * locked first, so of two admins approving at once one succeeds and the other gets 409
 * "Withdrawal is already approved". Refused (409) when the destination was blocked or the user
 * was blocked since the request: reject it instead.
 *
 * Four eyes: a withdrawal of at least its coin's second-approval threshold takes two approvals by
 * two admins holding the approve right. The first moves it to awaiting_second_approval (the hold
 * stays; the queue and a notification tell the others); the second, by anyone but the first
 * (403 to them), approves it. The threshold is read when the first approval is given.
 */
export async function approveWithdrawal(tx: DbOrTx, actor: Actor, id: number): Promise<WithdrawalRow> {
  assertBackOffice(actor, 'approve withdrawals');
  const locked = await lockFor(tx, withdrawalSubject, id, 'approve');
  const before = locked.before;
  const subject = { resource: 'withdrawals', recordId: before.id, action: 'approve' } as const;
  const waiting = before.status === SECOND_APPROVAL_STATE ? await openApproval(tx, subject) : null;
  if (await isBlockedAddress(tx, before.toAddress)) {
    throw conflict('The destination address was blocked after the request: reject the withdrawal', { toAddress: 'This address is blocked' });
  }
  const [user] = await tx.select({ status: users.status }).from(users).where(eq(users.id, before.userId)).for('share');
  if (user?.status === 'blocked') throw conflict('The user is blocked: reject the withdrawal or unblock the user first', { userId: 'This user is blocked' });
  if (waiting) {
    await recordSecondApproval(tx, actor, waiting);
    return approve(tx, actor, locked, false);
  }
  const [coin] = await tx.select({ threshold: coins.secondApprovalThreshold }).from(coins).where(eq(coins.id, before.coinId));
  if (coin?.threshold != null && before.amount >= coin.threshold) {
    // The first of two approvals: audited as an approval, the hold unchanged.
    return locked.apply(actor, {
      action: 'approve_first',
      audit: { as: 'approve' },
      effects: async () => recordFirstApproval(tx, actor, {
        ...subject, restriction: 'Withdraw', right: 'approve', summary: await approvalSummary(tx, before), link: `/withdraw?status=${SECOND_APPROVAL_STATE}&userId=${before.userId}`,
        notifyKind: 'withdrawal_second_approval',
      }),
    });
  }
  return approve(tx, actor, locked, false);
}

/** Rejects a requested withdrawal and releases the hold (held → available). */
export async function rejectWithdrawal(tx: DbOrTx, actor: Actor, id: number, input: ReasonInput): Promise<WithdrawalRow> {
  assertBackOffice(actor, 'reject withdrawals');
  const errors = new FieldErrors();
  const { reasonCode, note } = requireReasonCode(errors, input, WITHDRAWAL_REJECT_REASONS);
  errors.throwIfAny();
  const now = new Date();
  const { after } = await transition(tx, actor, withdrawalSubject, id, 'reject', {
    // Waiting for a second approval: either admin may reject it, which ends it.
    check: async (before) => {
      if (before.status === SECOND_APPROVAL_STATE) await closeRejected(tx, actor, { resource: 'withdrawals', recordId: before.id, action: 'approve' });
    },
    set: { reasonCode, reason: note, reviewedBy: adminId(actor), reviewedAt: now, updatedAt: now },
    effects: async (row, before) => {
      await postTransaction(tx, actor, { cause: 'withdrawal_release', ref: { type: 'withdrawal', id }, postings: holdPostings(before, -1n) });
      await mailWithdrawalRejected(tx, row);
    },
  });
  return after;
}

const SIGNATURE_TAKEN = 'Another withdrawal has this transaction signature';

/**
 * Records an approved withdrawal as sent on chain: held −(amount + fee), hot_wallet +amount,
 * fees_income +fee, in one ledger transaction. A transaction signature is used once.
 */
export async function completeWithdrawal(tx: DbOrTx, actor: Actor, id: number, input: { txSignature: string }): Promise<WithdrawalRow> {
  assertBackOffice(actor, 'complete withdrawals');
  const errors = new FieldErrors();
  const txSignature = requireTxSignature(errors, input.txSignature);
  errors.throwIfAny();
  const now = new Date();
  const moved = await transition(tx, actor, withdrawalSubject, id, 'complete', {
    set: { txSignature, processedAt: now, updatedAt: now },
    effects: async (_row, before) => {
      const postings: PostingInput[] = [
        { account: { user: before.userId, bucket: 'held' }, coin: before.coinId, amount: -(before.amount + before.fee) },
        { account: { platform: 'hot_wallet' }, coin: before.coinId, amount: before.amount },
      ];
      if (before.fee > 0n) postings.push({ account: { platform: 'fees_income' }, coin: before.coinId, amount: before.fee });
      await postTransaction(tx, actor, { cause: 'withdrawal_complete', ref: { type: 'withdrawal', id }, postings });
    },
  }).catch((err: unknown) => {
    if (isUniqueViolation(err, 'withdrawals_tx_signature_uq')) throw conflict(SIGNATURE_TAKEN, { txSignature: SIGNATURE_TAKEN });
    throw err;
  });
  return moved.after;
}

/** An approved withdrawal that could not be sent: releases the hold (held → available). */
export async function failWithdrawal(tx: DbOrTx, actor: Actor, id: number, input: ReasonInput): Promise<WithdrawalRow> {
  assertBackOffice(actor, 'fail withdrawals');
  const errors = new FieldErrors();
  const { reasonCode, note } = requireReasonCode(errors, input, WITHDRAWAL_FAIL_REASONS);
  errors.throwIfAny();
  const now = new Date();
  const { after } = await transition(tx, actor, withdrawalSubject, id, 'fail', {
    set: { reasonCode, reason: note, processedAt: now, updatedAt: now },
    effects: (_row, before) => postTransaction(tx, actor, { cause: 'withdrawal_release', ref: { type: 'withdrawal', id }, postings: holdPostings(before, -1n) }),
  });
  return after;
}
