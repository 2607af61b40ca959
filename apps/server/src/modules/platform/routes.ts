import { createHash, timingSafeEqual } from 'node:crypto';
import {
  ERROR_CODES, formatUnits, IDEMPOTENT_REPLAYED_HEADER, platformEndpoints as ep,
  type ApiEnvelope, type Endpoint, type EndpointResult, type PlatformBalances, type PlatformDepositRecord, type PlatformFiatPaymentRecord, type PlatformOrderRecord, type PlatformUserRecord, type PlatformWithdrawalRecord,
} from '@pitboss/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { eq } from 'drizzle-orm';
import { ok } from '../../http/envelope.js';
import { AppError, conflict } from '../../http/errors.js';
import { checkResult, route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { coinBySymbol } from '../coins/service.js';
import { coins } from '../coins/table.js';
import type { CoinRow } from '../coins/table.js';
import { recordDeposit } from '../deposits/service.js';
import type { DepositRow } from '../deposits/table.js';
import { recordFiatPayment } from '../fiat-payments/service.js';
import type { FiatPaymentRow } from '../fiat-payments/table.js';
import { fieldError } from '../ledger/input.js';
import { balancesOf, INSUFFICIENT_BALANCE } from '../ledger/service.js';
import { createUser, loadUser } from '../users/service.js';
import type { UserRow } from '../users/table.js';
import { markets } from '../markets/table.js';
import { placeOrderGrouped } from '../orders/group-commit.js';
import { cancelOrder, placeOrder } from '../orders/service.js';
import type { OrderRow } from '../orders/table.js';
import { reportCustody } from '../reconciliation/service.js';
import { requestWithdrawal } from '../withdrawals/service.js';
import { platformTicketView } from '../tickets/platform.js';
import { addUserMessage, createTicket } from '../tickets/service.js';
import type { WithdrawalRow } from '../withdrawals/table.js';
import { requireIdempotencyKey, runIdempotent, type Answer, type IdempotentResult } from './idempotency.js';

// ── Authentication (called by the app's onRequest hook for `{ kind: 'platform' }` routes) ──

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * The platform's bearer key, compared in constant time (SHA-256 digests of equal length, so
 * neither the content nor the length of the configured key leaks through timing). Without a
 * configured key every platform route answers 503: the API exists but is switched off here, and
 * the platform's retries keep what it reports until an operator sets the key (a 404 would read
 * as a wrong URL, and a sender usually drops what answers 404).
 */
export function assertPlatformKey(configured: string | undefined, presented: string | null): void {
  if (!configured) throw new AppError(503, ERROR_CODES.INTERNAL, 'The platform API is not enabled on this server (PLATFORM_API_KEY is not set)');
  if (presented === null || !timingSafeEqual(digest(configured), digest(presented))) {
    throw new AppError(401, ERROR_CODES.UNAUTHENTICATED, 'A valid platform API key is required (Authorization: Bearer <key>)', undefined, {
      'www-authenticate': 'Bearer realm="platform"',
    });
  }
}

// ── Records as the platform sees them: ids and money as strings ─────────────

const iso = (d: Date) => d.toISOString();

const userView = (u: UserRow): PlatformUserRecord => ({
  _id: String(u.id), username: u.username, email: u.email, walletAddress: u.walletAddress, country: u.country, status: u.status,
  emailVerified: u.emailVerified, createdAt: iso(u.createdAt),
});

const depositView = (d: DepositRow, coin: CoinRow): PlatformDepositRecord => ({
  _id: String(d.id), userId: String(d.userId), coin: coin.symbol, amount: d.amount.toString(), txSignature: d.txSignature, fromAddress: d.fromAddress,
  status: d.status, createdAt: iso(d.createdAt),
});

const withdrawalView = (w: WithdrawalRow, coin: CoinRow): PlatformWithdrawalRecord => ({
  _id: String(w.id), userId: String(w.userId), coin: coin.symbol, amount: w.amount.toString(), fee: w.fee.toString(), toAddress: w.toAddress,
  // Waiting for a second admin is still under review to the platform (its status list is unchanged).
  status: w.status === 'awaiting_second_approval' ? 'requested' : w.status, autoApproved: w.autoApproved, createdAt: iso(w.createdAt),
});

const fiatPaymentView = (p: FiatPaymentRow, coin: CoinRow | null): PlatformFiatPaymentRecord => ({
  _id: String(p.id), userId: String(p.userId), provider: p.provider, providerReference: p.providerReference, amount: p.amount.toString(),
  currency: p.currency, purpose: p.purpose, coin: coin?.symbol ?? null, coinAmount: p.coinAmount?.toString() ?? null, status: p.status,
  createdAt: iso(p.createdAt),
});

/** A coin named by symbol (any case), or a 400 on the `coin` field. */
async function coinFor(tx: DbOrTx, symbol: string): Promise<CoinRow> {
  const coin = await coinBySymbol(tx, symbol);
  if (!coin) fieldError('coin', `No coin ${symbol.toUpperCase()}`);
  return coin;
}

async function orderView(tx: DbOrTx, o: OrderRow): Promise<PlatformOrderRecord> {
  const [m] = await tx.select({ ticker: markets.ticker }).from(markets).where(eq(markets.id, o.marketId));
  const [c] = await tx.select({ symbol: coins.symbol }).from(coins).where(eq(coins.id, o.coinId));
  return orderRecord(o, m?.ticker ?? '', c?.symbol ?? '');
}

const orderRecord = (o: OrderRow, marketTicker: string, coin: string): PlatformOrderRecord => ({
  _id: String(o.id), userId: String(o.userId), marketId: String(o.marketId), marketTicker, outcome: o.outcome, side: o.side, price: o.price,
  quantity: o.quantity, filled: o.filled, remaining: o.remaining, timeInForce: o.timeInForce, expiresAt: o.expiresAt ? iso(o.expiresAt) : null, postOnly: o.postOnly,
  status: o.status, reason: o.reason, coin, held: o.held.toString(), fees: o.fees.toString(), createdAt: iso(o.createdAt),
});

/** A market named by id (digits) or ticker (any case), or a 400 on the `market` field. */
async function marketIdFor(tx: DbOrTx, ref: string): Promise<number> {
  const [m] = await marketsNamed(tx, ref);
  if (!m) fieldError('market', `No market ${ref}`);
  return m.id;
}

/** A market by id (digits) or ticker; digits past any id (not a safe integer) name no market rather than reach the database. */
const marketsNamed = async (tx: DbOrTx, ref: string): Promise<{ id: number; status: string }[]> => {
  const byId = /^\d+$/.test(ref);
  if (byId && !Number.isSafeInteger(Number(ref))) return [];
  return tx.select({ id: markets.id, status: markets.status }).from(markets).where(byId ? eq(markets.id, Number(ref)) : eq(markets.ticker, ref.toUpperCase()));
};

const platformActor = (req: FastifyRequest): Actor => ({ kind: 'platform', ip: req.ip });

/** The route-level check that runs before the body is validated: a write without a key is a 400 whatever its body. */
const idempotencyKeyHook = async (req: FastifyRequest) => {
  requireIdempotencyKey(req.headers);
};

/**
 * The path a key belongs to: the matched route with its validated params filled in (ids without
 * leading zeros), so `tickets/31/messages` and `tickets/33/messages` are two paths (the route's
 * pattern alone would replay one ticket's answer for the other) while spellings of one path agree.
 */
export function idempotencyPath(req: FastifyRequest): string {
  const params = (req.params ?? {}) as Record<string, unknown>;
  return (req.routeOptions.url ?? req.url).replace(/:(\w+)/g, (whole, name: string) => {
    const v = params[name];
    if (typeof v === 'number' || typeof v === 'bigint') return String(v);
    if (typeof v !== 'string') return whole;
    return /^\d+$/.test(v) ? BigInt(v).toString() : encodeURIComponent(v);
  });
}

/**
 * `/api/platform/v1/*`: the user-facing platform reports to the back-office (docs/api.md, "Platform
 * API"). Every write runs through `runIdempotent`: the service and the stored answer in one
 * transaction, as the platform actor (audited as `platform` with its address).
 */
/**
 * The writing half of every platform route: `idempotent` runs the service and stores its answer under
 * the request's `Idempotency-Key` in one transaction (`runIdempotent`), `answer` checks the result
 * against the endpoint's declaration before it is stored, `write` is the route option that refuses a
 * write without a key before its body is read. Other modules' platform routes (booster packs) use it too.
 */
export function platformWrites(ctx: AppContext) {
  const send = (reply: FastifyReply, result: IdempotentResult) => {
    if (result.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return reply.status(result.status).type('application/json; charset=utf-8').send(result.json);
  };
  const idempotent = async (req: FastifyRequest, reply: FastifyReply, execute: Parameters<typeof runIdempotent>[2]) => {
    const result = await runIdempotent(
      ctx.db,
      { key: requireIdempotencyKey(req.headers), method: req.method, path: idempotencyPath(req), body: req.body },
      execute,
    );
    return send(reply, result);
  };
  const write = { preValidation: idempotencyKeyHook };
  // The answer to store (and replay) for a key, checked against the endpoint's declared result first.
  const answer = <E extends Endpoint>(endpoint: E, body: ApiEnvelope<EndpointResult<E>>): Answer => {
    checkResult(endpoint, body.result, ctx.log);
    return { status: 200, body };
  };
  return { idempotent, send, write, answer, actor: platformActor };
}

export function platformRoutes(app: App, ctx: AppContext): void {
  const { idempotent, send, write, answer } = platformWrites(ctx);

  route(app, ep.createUser, async (req, reply) => {
    const b = req.body;
    return idempotent(req, reply, async (tx) => {
      const user = await createUser(tx, platformActor(req), {
        username: b.username, email: b.email, country: b.country ?? null, walletAddress: b.walletAddress ?? null,
        ...(b.signupIp ? { signupIp: b.signupIp } : {}), ...(b.emailVerified !== undefined ? { emailVerified: b.emailVerified } : {}),
      });
      return answer(ep.createUser, ok(userView(user), 'User created'));
    });
  }, write);

  route(app, ep.deposit, async (req, reply) => {
    const b = req.body;
    return idempotent(req, reply, async (tx) => {
      const coin = await coinFor(tx, b.coin);
      const deposit = await recordDeposit(tx, platformActor(req), {
        userId: Number(b.userId), coin: coin.id, amount: BigInt(b.amount), txSignature: b.txSignature, fromAddress: b.fromAddress,
      });
      return answer(ep.deposit, ok(depositView(deposit, coin), 'Deposit recorded: pending confirmation'));
    });
  }, write);

  route(app, ep.withdrawal, async (req, reply) => {
    const b = req.body;
    return idempotent(req, reply, async (tx) => {
      const coin = await coinFor(tx, b.coin);
      const withdrawal = await requestWithdrawal(tx, platformActor(req), { userId: Number(b.userId), coin: coin.id, amount: BigInt(b.amount), toAddress: b.toAddress }).catch(
        (err: unknown) => {
          // The ledger's refusal names no field: the amount (plus the fee) is what does not fit.
          if (err instanceof AppError && err.status === 409 && err.message === INSUFFICIENT_BALANCE && !err.errors) {
            throw conflict(INSUFFICIENT_BALANCE, { amount: `Not enough ${coin.symbol} available for the amount plus the ${formatUnits(coin.withdrawalFee, coin.decimals)} ${coin.symbol} fee` });
          }
          throw err;
        },
      );
      const message = withdrawal.status === 'approved' ? 'Withdrawal approved automatically' : 'Withdrawal requested: awaiting review';
      return answer(ep.withdrawal, ok(withdrawalView(withdrawal, coin), message));
    });
  }, write);

  route(app, ep.fiatPayment, async (req, reply) => {
    const b = req.body;
    return idempotent(req, reply, async (tx) => {
      const coin = b.purpose === 'coin_topup' && b.coin !== undefined ? await coinFor(tx, b.coin) : null;
      const payment = await recordFiatPayment(tx, platformActor(req), {
        userId: Number(b.userId), provider: b.provider, providerReference: b.providerReference, amount: BigInt(b.amount), currency: b.currency,
        purpose: b.purpose, coin: coin?.id ?? null, coinAmount: b.coinAmount === undefined ? null : BigInt(b.coinAmount),
      });
      return answer(ep.fiatPayment, ok(fiatPaymentView(payment, coin), 'Payment recorded: pending'));
    });
  }, write);

  // Markets by the id or ticker orders name them with. Only markets past draft are remembered: their
  // ticker is fixed from then on (markets/service.ts), and a market is never deleted once opened.
  const marketIds = new Map<string, number>();
  const knownMarket = async (ref: string): Promise<{ id: number } | undefined> => {
    const key = /^\d+$/.test(ref) ? ref : ref.toUpperCase();
    const known = marketIds.get(key);
    if (known !== undefined) return { id: known };
    const [m] = await marketsNamed(ctx.db, ref);
    if (m && m.status !== 'draft') marketIds.set(key, m.id);
    return m;
  };
  // Orders of one market are committed in groups (orders/group-commit.ts): the same answers,
  // keys and ledger as one transaction per order, at a rate one transaction per order cannot reach.
  route(app, ep.placeOrder, async (req, reply) => {
    const b = req.body;
    const input = (marketId: number) => ({
      userId: Number(b.userId), marketId, outcome: b.outcome, side: b.side, price: b.price, quantity: b.quantity,
      timeInForce: b.timeInForce, expiresAt: b.expiresAt ? new Date(b.expiresAt) : null, postOnly: b.postOnly ?? false,
    });
    const m = await knownMarket(b.market);
    if (!m) {
      // An unknown market: its 400 is stored for the key like any refusal of the service.
      return idempotent(req, reply, async (tx) => {
        const { order, message } = await placeOrder(tx, platformActor(req), input(await marketIdFor(tx, b.market)));
        return answer(ep.placeOrder, ok(await orderView(tx, order), message));
      });
    }
    const result = await placeOrderGrouped(ctx.db, {
      idem: { key: requireIdempotencyKey(req.headers), method: req.method, path: idempotencyPath(req), body: req.body },
      actor: platformActor(req),
      input: input(m.id),
      answer: (order, message, ticker, coin) => answer(ep.placeOrder, ok(orderRecord(order, ticker, coin), message)),
    });
    return send(reply, result);
  }, write);

  route(app, ep.cancelOrder, async (req, reply) => {
    return idempotent(req, reply, async (tx) => {
      const order = await cancelOrder(tx, platformActor(req), { orderId: Number(req.params.id) });
      return answer(ep.cancelOrder, ok(await orderView(tx, order), 'Order cancelled'));
    });
  }, write);

  route(app, ep.createTicket, async (req, reply) => {
    const b = req.body;
    return idempotent(req, reply, async (tx) => {
      const ticket = await createTicket(tx, platformActor(req), {
        userId: Number(b.userId), categoryId: b.categoryId === undefined ? null : Number(b.categoryId), subject: b.subject, message: b.message, ...(b.priority ? { priority: b.priority } : {}),
      });
      return answer(ep.createTicket, ok(await platformTicketView(tx, ticket.id), 'Ticket opened'));
    });
  }, write);

  route(app, ep.ticketMessage, async (req, reply) => {
    const b = req.body;
    return idempotent(req, reply, async (tx) => {
      const ticket = await addUserMessage(tx, platformActor(req), { ticketId: Number(req.params.id), userId: Number(b.userId), message: b.message });
      return answer(ep.ticketMessage, ok(await platformTicketView(tx, ticket.id), 'Message added'));
    });
  }, write);

  route(app, ep.ticket, async (req) => ok(await platformTicketView(ctx.db, Number(req.params.id))));

  route(app, ep.custodyBalance, async (req, reply) => {
    const b = req.body;
    return idempotent(req, reply, async (tx) => {
      const coin = await coinFor(tx, b.coin);
      const { report, check } = await reportCustody(tx, { coin, amount: BigInt(b.amount), asOf: new Date(b.asOf) });
      const message = check.status === 'mismatch' ? 'Custody balance recorded: it does not reconcile' : 'Custody balance recorded and reconciled';
      return answer(ep.custodyBalance, ok({
        _id: String(report.id), coin: coin.symbol, amount: report.amount.toString(), asOf: iso(report.asOf),
        reconciliation: { _id: String(check.id), status: check.status, difference: String(check.difference ?? 0n), unexplained: String(check.unexplained ?? 0n) },
      }, message));
    });
  }, write);

  route(app, ep.balances, async (req) => {
    const user = await loadUser(ctx.db, Number(req.params.id));
    const balances = await balancesOf(ctx.db, user.id);
    const result: PlatformBalances = {
      userId: String(user.id),
      balances: balances.map((b) => ({ coin: b.symbol, available: b.available.toString(), held: b.held.toString() })),
    };
    return ok(result);
  });
}
