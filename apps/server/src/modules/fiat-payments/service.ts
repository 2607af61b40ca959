import { FIAT_REFUND_REASONS, fiatPaymentStates, type ReasonInput } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { conflict } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { coins } from '../coins/table.js';
import { isUniqueViolation } from '../ledger/errors.js';
import { FieldErrors, requirePositive, requireReason, requireReasonCode } from '../ledger/input.js';
import { assertBackOffice, INSUFFICIENT_BALANCE, postTransaction } from '../ledger/service.js';
import { defineSubject, transition } from '../../resources/transition.js';
import { loadUser } from '../users/service.js';
import { FIAT_PURPOSES, fiatPayments, type FiatPaymentRow, type FiatPurpose } from './table.js';


/**
 * ISO 4217 currencies in circulation (ICU's list: no funds, metals or test codes). Fiat never enters
 * the ledger; `amount` is in the currency's minor units (cents; yen have none), shown and reported.
 */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));
export const isCurrencyCode = (code: string) => CURRENCIES.has(code);

export interface RecordFiatPaymentInput {
  userId: number;
  provider: string;
  providerReference: string;
  /** Minor units of `currency`. */
  amount: bigint;
  currency: string;
  purpose: FiatPurpose;
  /** coin_topup only: the coin bought and how much of it (its minor units), as quoted to the user. */
  coin?: number | null;
  coinAmount?: bigint | null;
}

export const fiatPaymentAuditView = (p: FiatPaymentRow) => ({
  userId: p.userId, provider: p.provider, providerReference: p.providerReference, amount: p.amount, currency: p.currency,
  purpose: p.purpose, coinId: p.coinId, coinAmount: p.coinAmount, status: p.status, reasonCode: p.reasonCode, reason: p.reason,
});

const REFERENCE_TAKEN = 'This provider reference is already recorded';

/**
 * A fiat payment reported by a provider, pending until it succeeds or fails. A coin top-up names
 * the coin and the coin amount it buys (fixed here, when the user accepted the quote); a pack
 * purchase names none. One record per (provider, provider reference): a second is a 409.
 */
export async function recordFiatPayment(tx: DbOrTx, actor: Actor, input: RecordFiatPaymentInput): Promise<FiatPaymentRow> {
  const errors = new FieldErrors();
  const provider = typeof input.provider === 'string' ? input.provider.trim().toLowerCase() : '';
  if (!/^[a-z0-9_-]{2,40}$/.test(provider)) errors.add('provider', 'A provider key (letters, digits, - or _)');
  const providerReference = typeof input.providerReference === 'string' ? input.providerReference.trim() : '';
  if (!providerReference || providerReference.length > 200 || /[\s\p{Cc}]/u.test(providerReference)) errors.add('providerReference', 'The provider’s payment reference (no spaces)');
  const amount = requirePositive(errors, input.amount);
  const currency = typeof input.currency === 'string' ? input.currency.trim().toUpperCase() : '';
  if (!isCurrencyCode(currency)) errors.add('currency', 'An ISO 4217 currency code (USD, EUR…)');
  if (!FIAT_PURPOSES.includes(input.purpose)) errors.add('purpose', 'coin_topup or pack_purchase');
  let coinId: number | null = null;
  let coinAmount: bigint | null = null;
  if (input.purpose === 'coin_topup') {
    coinAmount = requirePositive(errors, input.coinAmount, 'coinAmount');
    const [coin] = typeof input.coin === 'number' && Number.isSafeInteger(input.coin) ? await tx.select().from(coins).where(eq(coins.id, input.coin)) : [];
    if (!coin) errors.add('coin', 'Choose the coin this top-up buys');
    else if (coin.status !== 'active') errors.add('coin', `${coin.symbol} is inactive`);
    coinId = coin?.id ?? null;
  } else if (input.coin != null || input.coinAmount != null) {
    errors.add('coin', 'Only a coin top-up buys coins');
  }
  errors.throwIfAny();
  await loadUser(tx, input.userId);
  const row = await tx
    .insert(fiatPayments)
    .values({ userId: input.userId, provider, providerReference, amount, currency, purpose: input.purpose, coinId, coinAmount })
    .returning()
    .then(
      (r) => r[0]!,
      (err: unknown) => {
        if (isUniqueViolation(err, 'fiat_payments_provider_ref_uq')) throw conflict(REFERENCE_TAKEN, { providerReference: REFERENCE_TAKEN });
        throw err;
      },
    );
  await writeAudit(tx, actor, { action: 'record', resource: 'fiat-payments', recordId: row.id, after: fiatPaymentAuditView(row) });
  return row;
}

/** A payment's moves: through its declared machine, audited with `fiatPaymentAuditView`. */
export const fiatPaymentSubject = defineSubject({ resource: 'fiat-payments', table: fiatPayments, machine: fiatPaymentStates, view: fiatPaymentAuditView, label: 'Payment' });

const adminId = (actor: Actor) => (actor.kind === 'admin' ? actor.admin.id : null);

/**
 * The provider captured the money. A coin top-up credits the user once: fiat_clearing −coinAmount,
 * user available +coinAmount (cause fiat_payment). A pack purchase moves no coins.
 */
export async function succeedFiatPayment(tx: DbOrTx, actor: Actor, id: number): Promise<FiatPaymentRow> {
  assertBackOffice(actor, 'settle payments');
  const now = new Date();
  const { after } = await transition(tx, actor, fiatPaymentSubject, id, 'succeed', {
    set: { succeededAt: now, reviewedBy: adminId(actor), updatedAt: now },
    effects: async (_row, before) => {
      if (before.purpose !== 'coin_topup') return;
      await postTransaction(tx, actor, {
        cause: 'fiat_payment',
        ref: { type: 'fiat_payment', id },
        postings: [
          { account: { platform: 'fiat_clearing' }, coin: before.coinId!, amount: -before.coinAmount! },
          { account: { user: before.userId, bucket: 'available' }, coin: before.coinId!, amount: before.coinAmount! },
        ],
      });
    },
  });
  return after;
}

/** The provider declined or the payment expired: nothing was credited. */
export async function failFiatPayment(tx: DbOrTx, actor: Actor, id: number, input: { reason: string }): Promise<FiatPaymentRow> {
  assertBackOffice(actor, 'fail payments');
  const errors = new FieldErrors();
  const reason = requireReason(errors, input.reason);
  errors.throwIfAny();
  const { after } = await transition(tx, actor, fiatPaymentSubject, id, 'fail', { set: { reason, reviewedBy: adminId(actor), updatedAt: new Date() } });
  return after;
}

/**
 * Refunds a succeeded payment. A coin top-up takes the coins back (user available −coinAmount,
 * fiat_clearing +coinAmount, cause fiat_refund): when the user no longer has them available, 409
 * and nothing changes (settle it first, e.g. by an adjustment). A pack purchase moves no coins
 * (revoking the pack is the cards module's job).
 */
export async function refundFiatPayment(tx: DbOrTx, actor: Actor, id: number, input: ReasonInput): Promise<FiatPaymentRow> {
  assertBackOffice(actor, 'refund payments');
  const errors = new FieldErrors();
  const { reasonCode, note } = requireReasonCode(errors, input, FIAT_REFUND_REASONS);
  errors.throwIfAny();
  const now = new Date();
  const { after } = await transition(tx, actor, fiatPaymentSubject, id, 'refund', {
    set: { reasonCode, reason: note, refundedAt: now, reviewedBy: adminId(actor), updatedAt: now },
    effects: async (_row, before) => {
      if (before.purpose !== 'coin_topup') return;
      await postTransaction(tx, actor, {
        cause: 'fiat_refund',
        ref: { type: 'fiat_payment', id },
        postings: [
          { account: { user: before.userId, bucket: 'available' }, coin: before.coinId!, amount: -before.coinAmount! },
          { account: { platform: 'fiat_clearing' }, coin: before.coinId!, amount: before.coinAmount! },
        ],
      }).catch((err: unknown) => {
        if (err instanceof Error && err.message === INSUFFICIENT_BALANCE) {
          throw conflict(`${INSUFFICIENT_BALANCE}: the user no longer has the topped-up coins available to take back`, { coinAmount: INSUFFICIENT_BALANCE });
        }
        throw err;
      });
    },
  });
  return after;
}
