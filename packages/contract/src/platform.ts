import { z } from 'zod';
import { isCountryCode } from './lib/fields.js';
import { ipVersion } from './lib/ip.js';
import { base58Decode, isSolanaAddress } from './lib/solana.js';
import { endpoint, PLATFORM_ACCESS } from './resources/endpoint.js';

/**
 * The platform API: how the user-facing platform (not this product) reports signups, deposits
 * seen on chain, withdrawal requests and fiat payments to the back-office, under
 * `/api/platform/v1/`. Every call carries `Authorization: Bearer <PLATFORM_API_KEY>`; every write
 * carries an `Idempotency-Key` (same key and body → the first answer again, nothing done twice).
 *
 * Money travels as strings of digits in minor units (a bigint never becomes a JSON number); ids
 * are strings of digits; coins are named by symbol (`USDC`). Bodies are strict: an unknown key is
 * a 400. Answers are the standard envelope `{ success, message, result }`.
 */
export const PLATFORM_API_PREFIX = '/api/platform/v1';
/** The request header every platform write carries (HTTP headers are case-insensitive). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** 1–255 printable ASCII characters (a UUID is a good key). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
/** A key answers with its first answer for this long; after that it is new again. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
/** Set on an answer replayed from an earlier request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/** Whole minor units of a coin or currency, as a string of digits. */
export const platformUnits = z.string({ error: 'A whole number of minor units, as a string' }).regex(/^\d{1,30}$/, 'A whole number of minor units, as a string of digits');
/** A record id, as a string of digits. */
export const platformId = z.string({ error: 'An id, as a string of digits' }).regex(/^\d{1,18}$/, 'An id, as a string of digits');
const coinSymbol = z.string({ error: 'A coin symbol (USDC, SOL…)' }).regex(/^[A-Za-z0-9]{2,10}$/, 'A coin symbol (USDC, SOL…)');
const solanaAddress = z.string({ error: 'A Solana public key' }).max(44).refine(isSolanaAddress, 'A Solana public key (base58, 32 bytes)');
const txSignature = z
  .string({ error: 'A Solana transaction signature' })
  .min(64, 'A Solana transaction signature (base58, 64 bytes)')
  .max(90, 'A Solana transaction signature (base58, 64 bytes)')
  .refine((v) => base58Decode(v)?.length === 64, 'A Solana transaction signature (base58, 64 bytes)');

// ── Bodies ─────────────────────────────────────────────────────────────────

/** `POST users`: a signup on the platform. */
export const platformCreateUserBody = z
  .object({
    username: z.string({ error: '3–32 letters, digits, dots, dashes or underscores' }).regex(/^[A-Za-z0-9_.-]{3,32}$/, '3–32 letters, digits, dots, dashes or underscores'),
    email: z.string({ error: 'An email address' }).max(254, 'At most 254 characters').regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'A valid email address'),
    /** ISO 3166-1 alpha-2. */
    country: z.string().regex(/^[A-Za-z]{2}$/, 'An ISO 3166 two-letter country code').refine((v) => isCountryCode(v.toUpperCase()), 'No country has this code (ISO 3166)').nullish(),
    walletAddress: solanaAddress.nullish(),
    /** Where the user signed up from. */
    signupIp: z.string().max(45).refine((v) => ipVersion(v) !== null, 'An IP address').nullish(),
    /** Whether the platform has verified the email already. */
    emailVerified: z.boolean().optional(),
  })
  .strict();
export type PlatformCreateUserBody = z.infer<typeof platformCreateUserBody>;

/** `POST deposits`: a deposit seen on chain (recorded pending; an admin or a job confirms it). */
export const platformDepositBody = z
  .object({
    userId: platformId,
    coin: coinSymbol,
    amount: platformUnits,
    txSignature,
    fromAddress: solanaAddress,
  })
  .strict();
export type PlatformDepositBody = z.infer<typeof platformDepositBody>;

/** `POST withdrawals`: a user's withdrawal request (amount + the coin's fee are held at once). */
export const platformWithdrawalBody = z
  .object({
    userId: platformId,
    coin: coinSymbol,
    /** What the user receives; the coin's withdrawal fee is held on top. */
    amount: platformUnits,
    toAddress: solanaAddress,
  })
  .strict();
export type PlatformWithdrawalBody = z.infer<typeof platformWithdrawalBody>;

export const FIAT_PURPOSE_VALUES = ['coin_topup', 'pack_purchase'] as const;

/**
 * `POST fiat-payments`: a card or bank payment reported by a provider (recorded pending). A coin
 * top-up names the coin it buys and how much of it (`coinAmount`, the coin's minor units, as
 * quoted to the user); a pack purchase names neither.
 */
export const platformFiatPaymentBody = z
  .object({
    userId: platformId,
    /** Provider key (`stripe`, `moonpay`…). */
    provider: z.string({ error: 'A provider key' }).regex(/^[A-Za-z0-9_-]{2,40}$/, 'A provider key (2–40 letters, digits, - or _)'),
    /** The provider's id of the payment: one record per (provider, reference). */
    providerReference: z.string({ error: 'The provider’s payment reference' }).regex(/^\S{1,200}$/, 'The provider’s payment reference (1–200 characters, no spaces)'),
    /** Minor units of `currency` (cents; yen have none). */
    amount: platformUnits,
    /** ISO 4217. */
    currency: z.string({ error: 'An ISO 4217 currency code' }).regex(/^[A-Za-z]{3}$/, 'An ISO 4217 currency code (USD, EUR…)'),
    purpose: z.enum(FIAT_PURPOSE_VALUES, { error: 'coin_topup or pack_purchase' }),
    coin: coinSymbol.optional(),
    coinAmount: platformUnits.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.purpose === 'coin_topup') {
      if (b.coin === undefined) ctx.addIssue({ code: 'custom', path: ['coin'], message: 'Name the coin this top-up buys' });
      if (b.coinAmount === undefined) ctx.addIssue({ code: 'custom', path: ['coinAmount'], message: 'How much of the coin this top-up buys (minor units)' });
    } else {
      if (b.coin !== undefined) ctx.addIssue({ code: 'custom', path: ['coin'], message: 'Only a coin top-up buys coins' });
      if (b.coinAmount !== undefined) ctx.addIssue({ code: 'custom', path: ['coinAmount'], message: 'Only a coin top-up buys coins' });
    }
  });
export type PlatformFiatPaymentBody = z.infer<typeof platformFiatPaymentBody>;

/** `GET users/:id/balances`. */
export const platformUserParams = z.object({ id: platformId }).strict();

/** `POST orders`: a user's order on a market (named by id or ticker), price in cents of the outcome. */
export const platformOrderBody = z
  .object({
    userId: platformId,
    market: z.string({ error: 'A market id or ticker' }).regex(/^[A-Za-z0-9_.-]{1,64}$/, 'A market id or ticker'),
    outcome: z.enum(['YES', 'NO'], { error: 'YES or NO' }),
    side: z.enum(['buy', 'sell'], { error: 'buy or sell' }),
    price: z.number({ error: 'Whole cents from 1 to 99' }).int('Whole cents from 1 to 99').min(1, 'Whole cents from 1 to 99').max(99, 'Whole cents from 1 to 99'),
    quantity: z.number({ error: 'Whole shares' }).int('Whole shares').min(1, 'At least 1 share').max(1_000_000, 'At most 1,000,000 shares'),
    timeInForce: z.enum(['GTC', 'IOC', 'FOK', 'GTD'], { error: 'GTC, IOC, FOK or GTD' }),
    /** GTD only: an ISO 8601 instant in the future. */
    expiresAt: z.iso.datetime({ offset: true, error: 'An ISO 8601 instant' }).optional(),
    postOnly: z.boolean().optional(),
  })
  .strict();
export type PlatformOrderBody = z.infer<typeof platformOrderBody>;
export const platformOrderParams = z.object({ id: platformId }).strict();

// ── Answers (the envelope's `result`) ──────────────────────────────────────

const at = z.string();

export const platformUserRecord = z
  .object({
    _id: platformId,
    username: z.string(),
    email: z.string(),
    walletAddress: z.string().nullable(),
    country: z.string().nullable(),
    status: z.enum(['active', 'blocked']),
    emailVerified: z.boolean(),
    createdAt: at,
  })
  .strict();
export type PlatformUserRecord = z.infer<typeof platformUserRecord>;

export const platformDepositRecord = z
  .object({
    _id: platformId,
    userId: platformId,
    coin: z.string(),
    amount: platformUnits,
    txSignature: z.string(),
    fromAddress: z.string().nullable(),
    status: z.enum(['pending', 'confirmed', 'failed']),
    createdAt: at,
  })
  .strict();
export type PlatformDepositRecord = z.infer<typeof platformDepositRecord>;

export const platformWithdrawalRecord = z
  .object({
    _id: platformId,
    userId: platformId,
    coin: z.string(),
    amount: platformUnits,
    /** Held on top of the amount; platform income once the withdrawal completes. */
    fee: platformUnits,
    toAddress: z.string(),
    /** `approved` at once when the destination is whitelisted and the amount is under the site's auto-approve limit. */
    status: z.enum(['requested', 'approved', 'completed', 'rejected', 'failed']),
    autoApproved: z.boolean(),
    createdAt: at,
  })
  .strict();
export type PlatformWithdrawalRecord = z.infer<typeof platformWithdrawalRecord>;

export const platformFiatPaymentRecord = z
  .object({
    _id: platformId,
    userId: platformId,
    provider: z.string(),
    providerReference: z.string(),
    amount: platformUnits,
    currency: z.string(),
    purpose: z.enum(FIAT_PURPOSE_VALUES),
    coin: z.string().nullable(),
    coinAmount: platformUnits.nullable(),
    status: z.enum(['pending', 'succeeded', 'failed', 'refunded']),
    createdAt: at,
  })
  .strict();
export type PlatformFiatPaymentRecord = z.infer<typeof platformFiatPaymentRecord>;

export const platformBalance = z.object({ coin: z.string(), available: platformUnits, held: platformUnits }).strict();
/** A user's balances in the coins they have held (a coin never touched is absent: zero). */
/** An order as the platform sees it (money in minor units of the market's coin). */
export const platformOrderRecord = z
  .object({
    _id: platformId,
    userId: platformId,
    marketId: platformId,
    marketTicker: z.string(),
    outcome: z.enum(['YES', 'NO']),
    side: z.enum(['buy', 'sell']),
    price: z.number().int(),
    quantity: z.number().int(),
    filled: z.number().int(),
    remaining: z.number().int(),
    timeInForce: z.enum(['GTC', 'IOC', 'FOK', 'GTD']),
    expiresAt: z.string().nullable(),
    postOnly: z.boolean(),
    status: z.enum(['open', 'partially_filled', 'filled', 'cancelled', 'expired', 'rejected']),
    reason: z.string().nullable(),
    coin: z.string(),
    held: platformUnits,
    fees: platformUnits,
    createdAt: z.string(),
  })
  .strict();
export type PlatformOrderRecord = z.infer<typeof platformOrderRecord>;

export const platformBalances = z.object({ userId: platformId, balances: z.array(platformBalance) }).strict();
export type PlatformBalances = z.infer<typeof platformBalances>;

/** The success envelope around a platform answer, for clients that check what they receive. */
export const platformEnvelope = <T extends z.ZodType>(result: T) => z.object({ success: z.literal(true), message: z.string(), result }).strict();

// ── Endpoints (every write also needs an `Idempotency-Key` header) ─────────

// ── Support tickets ────────────────────────────────────────────────────────

/** A user's message: plain text or simple HTML (sanitised on the server like an admin's reply). */
const ticketMessageText = z.string({ error: 'The message' }).trim().min(1, 'The message is empty').max(20_000, 'At most 20,000 characters');

/** `POST tickets`: a user opens a support ticket with its first message. */
export const platformTicketBody = z
  .object({
    userId: platformId,
    /** A support category's id (an active one); none: uncategorised. */
    categoryId: platformId.optional(),
    subject: z.string({ error: 'A subject' }).trim().min(3, 'At least 3 characters').max(200, 'At most 200 characters'),
    message: ticketMessageText,
    priority: z.enum(['low', 'normal', 'high', 'urgent'], { error: 'low, normal, high or urgent' }).optional(),
  })
  .strict();
export type PlatformTicketBody = z.infer<typeof platformTicketBody>;

/** `POST tickets/:id/messages`: the ticket's user writes again (an answered or closed ticket opens again). */
export const platformTicketMessageBody = z.object({ userId: platformId, message: ticketMessageText }).strict();
export const platformTicketParams = z.object({ id: platformId }).strict();

/** A ticket as the platform (and so the user) sees it: never an internal note, never who is assigned. */
export const platformTicketRecord = z
  .object({
    _id: platformId,
    userId: platformId,
    categoryId: platformId.nullable(),
    category: z.string().nullable(),
    subject: z.string(),
    priority: z.enum(['low', 'normal', 'high', 'urgent']),
    status: z.enum(['open', 'answered', 'closed']),
    createdAt: at,
    lastActivityAt: at,
    messages: z.array(
      z
        .object({
          _id: platformId,
          author: z.enum(['user', 'support']),
          /** Sanitised HTML. */
          body: z.string(),
          /** File names of the support team's attachments (the files stay in the back-office). */
          attachments: z.array(z.string()),
          createdAt: at,
        })
        .strict(),
    ),
  })
  .strict();
export type PlatformTicketRecord = z.infer<typeof platformTicketRecord>;

/**
 * `POST custody-balances`: what the platform's custody (the hot wallet) holds of a coin at an instant.
 * Each report is reconciled at once against the ledger and the records at `asOf` (docs/money-controls.md).
 */
export const platformCustodyBalanceBody = z
  .object({
    coin: coinSymbol,
    amount: platformUnits,
    asOf: z.iso.datetime({ offset: true, error: 'An ISO 8601 instant with its offset' }),
  })
  .strict();
export type PlatformCustodyBalanceBody = z.infer<typeof platformCustodyBalanceBody>;

/** The report as stored, with the reconciliation it gave. */
export const platformCustodyBalanceRecord = z
  .object({
    _id: platformId,
    coin: z.string(),
    amount: platformUnits,
    asOf: at,
    reconciliation: z.object({
      _id: platformId,
      status: z.enum(['matched', 'explained', 'mismatch', 'no_report']),
      /** Custody − ledger, and what deposits in flight leave unexplained (signed minor units). */
      difference: z.string(),
      unexplained: z.string(),
    }).strict(),
  })
  .strict();
export type PlatformCustodyBalanceRecord = z.infer<typeof platformCustodyBalanceRecord>;

export const platformEndpoints = {
  createUser: endpoint('POST /api/platform/v1/users', { access: PLATFORM_ACCESS, summary: 'A signup on the platform', body: platformCreateUserBody, result: platformUserRecord }),
  deposit: endpoint('POST /api/platform/v1/deposits', { access: PLATFORM_ACCESS, summary: 'A deposit seen on chain (pending until confirmed)', body: platformDepositBody, result: platformDepositRecord }),
  withdrawal: endpoint('POST /api/platform/v1/withdrawals', { access: PLATFORM_ACCESS, summary: 'A user\'s withdrawal request: holds amount + fee, or is refused', body: platformWithdrawalBody, result: platformWithdrawalRecord }),
  fiatPayment: endpoint('POST /api/platform/v1/fiat-payments', { access: PLATFORM_ACCESS, summary: 'A fiat payment started with a provider', body: platformFiatPaymentBody, result: platformFiatPaymentRecord }),
  placeOrder: endpoint('POST /api/platform/v1/orders', { access: PLATFORM_ACCESS, summary: 'A user\'s order: a buy holds its maximum cost and fee, then it matches', body: platformOrderBody, result: platformOrderRecord }),
  cancelOrder: endpoint('DELETE /api/platform/v1/orders/:id', { access: PLATFORM_ACCESS, summary: 'Cancels a live order; its hold or reserved shares are released', params: platformOrderParams, result: platformOrderRecord }),
  createTicket: endpoint('POST /api/platform/v1/tickets', { access: PLATFORM_ACCESS, summary: 'A user opens a support ticket with its first message', body: platformTicketBody, result: platformTicketRecord }),
  ticketMessage: endpoint('POST /api/platform/v1/tickets/:id/messages', { access: PLATFORM_ACCESS, summary: 'The ticket\'s user writes again: an answered or closed ticket opens again', params: platformTicketParams, body: platformTicketMessageBody, result: platformTicketRecord }),
  ticket: endpoint('GET /api/platform/v1/tickets/:id', { access: PLATFORM_ACCESS, summary: 'A ticket\'s conversation as the user sees it (no internal notes)', params: platformTicketParams, result: platformTicketRecord }),
  custodyBalance: endpoint('POST /api/platform/v1/custody-balances', { access: PLATFORM_ACCESS, summary: 'The custody balance of a coin at an instant: reconciled at once', body: platformCustodyBalanceBody, result: platformCustodyBalanceRecord }),
  balances: endpoint('GET /api/platform/v1/users/:id/balances', { access: PLATFORM_ACCESS, summary: 'A user\'s balances per coin', params: platformUserParams, result: platformBalances }),
};
