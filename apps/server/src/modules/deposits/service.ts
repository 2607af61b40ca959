import { DEPOSIT_FAIL_REASONS, depositStates, type ReasonInput } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { conflict } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { coins } from '../coins/table.js';
import { isUniqueViolation } from '../ledger/errors.js';
import { FieldErrors, fieldError, requireAddress, requirePositive, requireReasonCode, requireTxSignature } from '../ledger/input.js';
import { assertBackOffice, postTransaction } from '../ledger/service.js';
import { defineSubject, transition } from '../../resources/transition.js';
import { loadUser } from '../users/service.js';
import { mailDepositConfirmed } from '../../mail/user-mail.js';
import { deposits, type DepositRow } from './table.js';
import { notifyIfLargeDeposit } from '../notifications/alerts.js';


export interface RecordDepositInput {
  userId: number;
  coin: number;
  amount: bigint;
  txSignature: string;
  fromAddress?: string | null;
}

export const depositAuditView = (d: DepositRow) => ({
  userId: d.userId, coinId: d.coinId, amount: d.amount, txSignature: d.txSignature, fromAddress: d.fromAddress,
  status: d.status, reasonCode: d.reasonCode, failedReason: d.failedReason,
});

const SIGNATURE_TAKEN = 'A deposit with this transaction signature is already recorded';

/**
 * A deposit seen on chain, pending until confirmed. The coin must be active with deposits enabled;
 * a transaction signature is recorded once (409 for the second).
 */
export async function recordDeposit(tx: DbOrTx, actor: Actor, input: RecordDepositInput): Promise<DepositRow> {
  const errors = new FieldErrors();
  const amount = requirePositive(errors, input.amount);
  const txSignature = requireTxSignature(errors, input.txSignature);
  const fromAddress = input.fromAddress ? requireAddress(errors, input.fromAddress, 'fromAddress') : null;
  errors.throwIfAny();
  const [coin] = Number.isSafeInteger(input.coin) ? await tx.select().from(coins).where(eq(coins.id, input.coin)) : [];
  if (!coin) fieldError('coin', 'No such coin');
  if (coin.status !== 'active' || !coin.depositEnabled) fieldError('coin', `Deposits of ${coin.symbol} are turned off`);
  const user = await loadUser(tx, input.userId);
  const row = await tx
    .insert(deposits)
    .values({ userId: input.userId, coinId: coin.id, amount, txSignature, fromAddress })
    .returning()
    .then(
      (r) => r[0]!,
      (err: unknown) => {
        if (isUniqueViolation(err, 'deposits_tx_signature_uq')) throw conflict(SIGNATURE_TAKEN, { txSignature: SIGNATURE_TAKEN });
        throw err;
      },
    );
  await writeAudit(tx, actor, { action: 'record', resource: 'deposits', recordId: row.id, after: depositAuditView(row) });
  await notifyIfLargeDeposit(tx, row, coin, user.username);
  return row;
}

/** A deposit's moves: through its declared machine, audited with `depositAuditView`. */
export const depositSubject = defineSubject({ resource: 'deposits', table: deposits, machine: depositStates, view: depositAuditView });

const reviewer = (actor: Actor) => (actor.kind === 'admin' ? actor.admin.id : null);

/**
 * Confirms a pending deposit and credits it exactly once: hot_wallet −amount, user available
 * +amount. The row is locked first, so a second confirmation (another admin, the chain watcher)
 * waits, then finds it confirmed: 409 "Deposit is already confirmed".
 */
export async function confirmDeposit(tx: DbOrTx, actor: Actor, id: number): Promise<DepositRow> {
  assertBackOffice(actor, 'confirm deposits');
  const now = new Date();
  const { after } = await transition(tx, actor, depositSubject, id, 'confirm', {
    set: { confirmedAt: now, reviewedBy: reviewer(actor), reviewedAt: now, updatedAt: now },
    effects: async (row, before) => {
      await postTransaction(tx, actor, {
        cause: 'deposit',
        ref: { type: 'deposit', id },
        postings: [
          { account: { platform: 'hot_wallet' }, coin: before.coinId, amount: -before.amount },
          { account: { user: before.userId, bucket: 'available' }, coin: before.coinId, amount: before.amount },
        ],
      });
      // The user hears of the credit, in this transaction.
      await mailDepositConfirmed(tx, row);
    },
  });
  return after;
}

/** Marks a pending deposit failed (never credited). */
export async function failDeposit(tx: DbOrTx, actor: Actor, id: number, input: ReasonInput): Promise<DepositRow> {
  assertBackOffice(actor, 'fail deposits');
  const errors = new FieldErrors();
  const { reasonCode, note } = requireReasonCode(errors, input, DEPOSIT_FAIL_REASONS);
  errors.throwIfAny();
  const now = new Date();
  const { after } = await transition(tx, actor, depositSubject, id, 'fail', {
    set: { reasonCode, failedReason: note, reviewedBy: reviewer(actor), reviewedAt: now, updatedAt: now },
  });
  return after;
}
