import bs58 from 'bs58';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { ReasonInput } from '@pitboss/contract';
import { actingAt, adminActor, systemActor, type Actor } from '../context.js';
import { queryRows, type Db, type DbOrTx } from '../db/client.js';
import { admins, appMeta, auditLog, coins, users, whitelistWallets } from '../db/schema.js';
import { adjustBalance, reverseAdjustment } from '../modules/balance-adjustments/service.js';
import { coinBySymbol, createCoin } from '../modules/coins/service.js';
import { confirmDeposit, failDeposit, recordDeposit } from '../modules/deposits/service.js';
import { failFiatPayment, recordFiatPayment, refundFiatPayment, succeedFiatPayment } from '../modules/fiat-payments/service.js';
import type { FiatPurpose } from '../modules/fiat-payments/table.js';
import { blockUser } from '../modules/users/service.js';
import { approveWithdrawal, completeWithdrawal, failWithdrawal, rejectWithdrawal, requestWithdrawal } from '../modules/withdrawals/service.js';
import { PLATFORM_COINS } from './bootstrap.js';
import { ADVISORY_LOCKS } from '../lib/locks.js';

/*
 * The demo platform's players and their money: a year of signups, deposits, withdrawals and card
 * payments, so that every list, filter, report and user page of the back-office has something
 * believable to show.
 *
 * Rules this seed keeps:
 * - Users are historical signups reported by the platform: they are bulk-inserted (5,000 service
 *   calls would take most of the start-up budget), with the audit entry `createUser` would write,
 *   dated at the signup.
 * - Every balance change goes through the money services (recordDeposit/confirmDeposit,
 *   requestWithdrawal/approve/complete/reject/fail, recordFiatPayment/succeed/fail/refund), which
 *   post to the ledger with postTransaction: the ledger invariants hold by construction.
 * - Each service is called by its actor acting at the event's time in the story (`actingAt`): the
 *   append-only records it writes (ledger transactions, audit entries; triggers refuse an UPDATE)
 *   are inserted with that time, so the admin profit report and the audit log tell the story by
 *   day. The mutable money rows (deposits, withdrawals, fiat payments, and the blocked users'
 *   blocked_at), which the services stamp "now", are re-dated to the story afterwards with plain
 *   UPDATEs. The events are replayed in chronological order, so the ledger's ids follow it too.
 * - Everything happens in one database transaction (with a transaction-level advisory lock, so two
 *   instances starting at once on one PostgreSQL seed once): a crash half-way leaves nothing, and
 *   the next start seeds again. It runs once (app_meta `demo_money_seeded_at`) and only on a
 *   database without users.
 */

// ── Deterministic randomness ──────────────────────────────────────────────────────────────────

/** A seeded pseudo-random source (mulberry32), so every demo database tells the same story. */
export class Random {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let x = this.next() * total;
    for (const [v, w] of entries) {
      x -= w;
      if (x < 0) return v;
    }
    return entries[entries.length - 1]![0];
  }
  bytes(n: number): Uint8Array {
    return Uint8Array.from({ length: n }, () => Math.floor(this.next() * 256));
  }
  /** A Solana public key: base58 of 32 bytes. */
  address(): string {
    return bs58.encode(this.bytes(32));
  }
  /** A Solana transaction signature: base58 of 64 bytes. */
  signature(): string {
    return bs58.encode(this.bytes(64));
  }
  alnum(n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

// ── People ────────────────────────────────────────────────────────────────────────────────────

const FIRST_NAMES = [
  'James', 'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Lucas', 'Mia', 'Mateo', 'Sofia', 'Ethan', 'Isabella', 'Leo', 'Amelia', 'Hugo', 'Chloe',
  'Arjun', 'Priya', 'Rahul', 'Ananya', 'Wei', 'Mei', 'Hiroshi', 'Yuki', 'Minjun', 'Jiwoo', 'Chinedu', 'Amara', 'Kwame', 'Zanele', 'Diego',
  'Valentina', 'Santiago', 'Camila', 'Joao', 'Beatriz', 'Lukas', 'Lena', 'Jonas', 'Hannah', 'Pierre', 'Camille', 'Luca', 'Giulia', 'Marek',
  'Zofia', 'Oleksandr', 'Anastasia', 'Mehmet', 'Elif', 'Omar', 'Layla', 'Ahmed', 'Fatima', 'Daniel', 'Sarah', 'Michael', 'Emily', 'David',
  'Grace', 'Ryan', 'Zoe', 'Tyler', 'Nora', 'Kevin', 'Ines', 'Mohammed', 'Aisha', 'Tomas', 'Eva', 'Felix', 'Clara', 'Oscar', 'Maja', 'Ivan',
  'Elena', 'Sven', 'Freya', 'Connor', 'Niamh', 'Rafael', 'Lucia', 'Andre', 'Tanvi', 'Kenji', 'Sakura', 'Bao', 'Linh', 'Tunde', 'Ngozi',
];
const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Garcia', 'Martinez', 'Silva', 'Santos', 'Oliveira', 'Mueller', 'Schmidt', 'Schneider', 'Fischer',
  'Dubois', 'Martin', 'Bernard', 'Rossi', 'Russo', 'Ferrari', 'Kowalski', 'Nowak', 'Kovalenko', 'Shevchenko', 'Yilmaz', 'Kaya', 'Okafor',
  'Adeyemi', 'Mensah', 'Dlamini', 'Khumalo', 'Patel', 'Sharma', 'Singh', 'Kumar', 'Nguyen', 'Tran', 'Kim', 'Lee', 'Park', 'Tanaka', 'Sato',
  'Suzuki', 'Wang', 'Li', 'Zhang', 'Chen', 'Hernandez', 'Lopez', 'Gonzalez', 'Perez', 'Rodriguez', 'Novak', 'Horvat', 'Jansen', 'Visser',
  'Bakker', 'Andersson', 'Johansson', 'Nielsen', 'Hansen', 'Murphy', 'Kelly', 'Walsh', 'Cohen', 'Haddad', 'Nasser', 'Ivanov', 'Petrov',
  'Costa', 'Ferreira', 'Romero', 'Alvarez', 'Torres', 'Ramirez', 'Reyes', 'Cruz', 'Mendoza', 'Wilson', 'Taylor', 'Anderson', 'Thomas',
  'Moore', 'Jackson', 'White', 'Harris', 'Clark', 'Lewis', 'Walker', 'Young', 'King', 'Wright', 'Scott', 'Green', 'Baker', 'Adams', 'Hill',
  'Campbell', 'Mitchell', 'Roberts', 'Carter', 'Evans', 'Turner', 'Parker', 'Collins', 'Edwards', 'Stewart', 'Morris', 'Murray', 'Hughes',
];
const HANDLES = [
  'sol', 'degen', 'whale', 'moon', 'ape', 'pixel', 'lucky', 'ace', 'king', 'queen', 'shadow', 'crypto', 'hodl', 'stack', 'flip', 'card',
  'pack', 'rare', 'mythic', 'shiny', 'dragon', 'tiger', 'wolf', 'fox', 'ghost', 'ninja', 'rocket', 'alpha', 'sigma', 'based', 'mint', 'gem',
  'diamond', 'gold', 'satoshi', 'punk', 'byte', 'node', 'block', 'vault', 'pit', 'jackpot', 'dice', 'oracle', 'quant', 'yield', 'bull',
  'bear', 'legend', 'holo', 'foil', 'nova', 'zen', 'echo', 'drift', 'storm', 'frost', 'blaze', 'orbit', 'comet',
];
/**
 * Well-known mail providers under the reserved `.example` TLD (RFC 2606): the addresses look real
 * in the lists but can never reach a real person, whatever a future feature mails.
 */
const EMAIL_DOMAINS: [string, number][] = [
  ['gmail.example', 34], ['outlook.example', 12], ['yahoo.example', 8], ['icloud.example', 8], ['proton.example', 7], ['hotmail.example', 6],
  ['gmx.example', 4], ['web.example', 3], ['mail.example', 3], ['fastmail.example', 2], ['yandex.example', 2], ['aol.example', 1],
];
const COUNTRIES: [string, number][] = [
  ['US', 18], ['GB', 7], ['DE', 7], ['BR', 7], ['IN', 6], ['NG', 5], ['PH', 4], ['CA', 4], ['FR', 4], ['TR', 3], ['VN', 3], ['ID', 3],
  ['MX', 3], ['ES', 3], ['AU', 3], ['AR', 2], ['IT', 2], ['NL', 2], ['PL', 2], ['UA', 2], ['KR', 2], ['JP', 2], ['ZA', 2], ['SG', 1],
  ['AE', 1], ['SE', 1], ['PT', 1], ['KE', 1], ['TH', 1], ['CO', 1], ['AT', 1], ['BE', 1], ['IE', 1], ['CH', 1], ['NZ', 1],
];
const EURO = new Set(['DE', 'FR', 'ES', 'IT', 'NL', 'PT', 'AT', 'BE', 'IE']);

export interface Person {
  username: string;
  email: string;
  country: string | null;
}

const lower = (s: string) => s.toLowerCase();

/**
 * A plausible player: a username from a name or a gamer handle, an email on a provider, a country.
 * Unique (case-insensitively) against the `taken` sets, which it extends.
 */
export function makePerson(r: Random, taken: { usernames: Set<string>; emails: Set<string> }): Person {
  const first = r.pick(FIRST_NAMES);
  const last = r.pick(LAST_NAMES);
  const h1 = r.pick(HANDLES);
  let h2 = r.pick(HANDLES);
  while (h2 === h1) h2 = r.pick(HANDLES);
  const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
  const year = () => String(r.int(1975, 2006));
  let username = r.weighted<() => string>([
    [() => lower(first) + lower(last), 10],
    [() => `${first}_${last}`, 6],
    [() => `${lower(first)}.${lower(last)}${r.int(1, 99)}`, 6],
    [() => h1 + h2 + (r.chance(0.5) ? r.int(1, 999) : ''), 12],
    [() => `${h1}_${lower(first)}`, 6],
    [() => `${cap(first)}${last[0]}${year()}`, 6],
    [() => `${lower(first)}${year().slice(2)}`, 6],
    [() => `${cap(h1)}${cap(h2)}`, 4],
    [() => `x${h1}${h2}x`, 1],
    [() => `${h1}${r.int(1, 9999)}`, 5],
    [() => `the_${h1}_${h2}`, 2],
  ])().slice(0, 28);
  while (taken.usernames.has(lower(username))) username = `${username.slice(0, 24)}${r.int(1, 9999)}`;
  taken.usernames.add(lower(username));

  const domain = r.weighted(EMAIL_DOMAINS);
  let local = r.weighted<() => string>([
    [() => `${lower(first)}.${lower(last)}`, 10],
    [() => lower(first) + lower(last) + r.int(1, 99), 6],
    [() => lower(username), 8],
    [() => lower(first[0]!) + lower(last), 5],
    [() => `${lower(first)}${year()}`, 4],
    [() => `${lower(last)}.${lower(first)}`, 2],
  ])();
  while (taken.emails.has(`${local}@${domain}`)) local = `${local}${r.int(1, 99)}`;
  taken.emails.add(`${local}@${domain}`);
  const country = r.chance(0.03) ? null : r.weighted(COUNTRIES);
  return { username, email: `${local}@${domain}`, country };
}

/** An address from the documentation ranges (RFC 5737 / RFC 3849): never a real subscriber. */
export function makeIp(r: Random): string {
  if (r.chance(0.08)) return `2001:db8:${r.int(1, 0xffff).toString(16)}::${r.int(1, 0xffff).toString(16)}`;
  return `${r.pick(['198.51.100', '203.0.113', '192.0.2'])}.${r.int(1, 254)}`;
}

// ── Coins and amounts ─────────────────────────────────────────────────────────────────────────

export type CoinSymbol = 'SOL' | 'USDC';
const LAMPORTS = 1_000_000_000n;
const MICRO_USDC = 1_000_000n;

/** A SOL price in US cents that drifts over the year (used to quote card top-ups in SOL). */
const solPriceCents = (at: number) => Math.round(16_000 + 4_000 * Math.sin(at / (86_400_000 * 58)) + 1_500 * Math.sin(at / (86_400_000 * 9)));

/** A deposit as people send them: mostly round amounts, some odd ones; `scale` > 1 for big players. */
export function depositAmount(r: Random, coin: CoinSymbol, scale = 1): bigint {
  if (coin === 'SOL') {
    let sol = r.pick([0.05, 0.1, 0.2, 0.25, 0.5, 0.5, 1, 1, 1, 2, 2, 3, 5, 5, 10, 15, 25]) * scale;
    if (r.chance(0.3)) sol *= r.between(0.6, 1.4);
    return BigInt(Math.max(1, Math.round(sol * 10_000))) * 100_000n;
  }
  let usdc = r.pick([5, 10, 10, 20, 25, 25, 50, 50, 50, 100, 100, 150, 200, 250, 500, 1000]) * scale;
  if (r.chance(0.25)) usdc *= r.between(0.6, 1.4);
  return BigInt(Math.max(1, Math.round(usdc * 100))) * 10_000n;
}

const currencyOf = (country: string | null) => (country === 'GB' ? 'GBP' : country && EURO.has(country) ? 'EUR' : 'USD');
const USD_PER = { USD: 1, EUR: 1.08, GBP: 1.27 } as const;

/** A card top-up quote: what the user pays (fiat minor units) and the coins it buys (3.5% fee). */
export function topUpQuote(r: Random, coin: CoinSymbol, country: string | null, at: number): { amount: bigint; currency: string; coinAmount: bigint } {
  const currency = currencyOf(country);
  const cents = r.pick([1000, 2000, 2500, 5000, 5000, 10000, 10000, 20000, 25000, 50000]);
  const usdCents = cents * USD_PER[currency as keyof typeof USD_PER] * 0.965;
  const coinAmount = coin === 'USDC'
    ? BigInt(Math.floor(usdCents)) * 10_000n
    : BigInt(Math.floor((usdCents / solPriceCents(at)) * 1e6)) * 1_000n;
  return { amount: BigInt(cents), currency, coinAmount };
}

export function packPrice(r: Random, country: string | null): { amount: bigint; currency: string } {
  return { amount: BigInt(r.pick([499, 999, 999, 1999, 1999, 4999])), currency: currencyOf(country) };
}

export function providerReference(r: Random, provider: string): string {
  if (provider === 'stripe') return `pi_3${r.alnum(23)}`;
  if (provider === 'paypal') return r.alnum(17, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789');
  const hex = () => r.alnum(4, '0123456789abcdef');
  return `${hex()}${hex()}-${hex()}-4${hex().slice(1)}-a${hex().slice(1)}-${hex()}${hex()}${hex()}`;
}

export const REASONS = {
  depositFailed: [
    { reasonCode: 'reverted', reason: 'Transaction not finalized: dropped by the cluster' }, { reasonCode: 'other', reason: 'Sent to an expired deposit address' },
    { reasonCode: 'wrong_token', reason: 'Token mint does not match the coin' }, { reasonCode: 'amount_mismatch', reason: 'Amount below the minimum deposit' },
    { reasonCode: 'not_found', reason: 'Signature not found on chain after 30 minutes' },
  ] satisfies ReasonInput[],
  withdrawalRejected: [
    { reasonCode: 'destination_risk', reason: 'Destination address linked to a phishing report' }, { reasonCode: 'identity_check', reason: 'Account verification required before withdrawing' },
    { reasonCode: 'suspected_fraud', reason: 'Unusual activity: new device and new destination' }, { reasonCode: 'user_request', reason: 'User asked to cancel the request' },
    { reasonCode: 'duplicate', reason: 'Duplicate of an earlier request' },
  ] satisfies ReasonInput[],
  withdrawalFailed: [
    { reasonCode: 'chain_error', reason: 'RPC node timeout: transaction not confirmed' }, { reasonCode: 'expired', reason: 'Blockhash expired before confirmation' },
    { reasonCode: 'invalid_destination', reason: 'Destination token account could not be created' },
    { reasonCode: 'hot_wallet_short', reason: 'Hot wallet rebalancing in progress, to be retried' },
  ] satisfies ReasonInput[],
  paymentFailed: [
    'Card declined by the issuer', '3-D Secure authentication failed', 'Insufficient funds on the card', 'Payment expired before capture',
    'Blocked by the provider risk check',
  ],
  refund: [
    { reasonCode: 'customer_request', reason: 'Customer requested a refund within 14 days' }, { reasonCode: 'duplicate_charge', reason: 'Duplicate charge' },
    { reasonCode: 'not_delivered', reason: 'Pack not delivered during a platform outage' },
  ] satisfies ReasonInput[],
  block: [
    'Chargeback on a card top-up', 'Bonus abuse across promotions', 'Requested self-exclusion for 6 months', 'Account sharing reported by the owner',
    'Stolen card used for top-ups', 'Deposit from a sanctioned address', 'Abusive messages to support',
  ],
};

// ── The story ─────────────────────────────────────────────────────────────────────────────────

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Sign-ups and activity by hour of day (UTC): quiet nights, busy evenings. */
const HOUR_WEIGHTS = [3, 2, 1.5, 1, 1, 1, 1.5, 2, 3, 3.5, 4, 4.5, 5, 5, 5, 5.5, 6, 7, 8, 9, 9, 8, 6, 4];
/** By day of week (Sunday first): weekends are busier. */
const WEEKDAY_WEIGHTS = [1.3, 0.88, 0.86, 0.9, 0.95, 1.12, 1.36];

interface GenUser {
  person: Person;
  ip: string;
  wallet: string | null;
  createdAt: number;
  lastLoginAt: number;
  emailVerified: boolean;
  /** How much money this player moves (0: never funds the account). */
  weight: number;
  /** Pays by card rather than depositing crypto. */
  cardOnly: boolean;
  prefers: CoinSymbol;
  id: number;
}

type Plan =
  | { kind: 'deposit'; at: number; user: GenUser; coin: CoinSymbol; amount: bigint; outcome: 'confirmed' | 'failed' | 'pending'; settleAt: number; manual: boolean }
  | {
    kind: 'payment'; at: number; user: GenUser; purpose: FiatPurpose; provider: string; coin: CoinSymbol | null; amount: bigint; currency: string;
    coinAmount: bigint | null; outcome: 'succeeded' | 'failed' | 'pending'; settleAt: number; refund: { at: number; reason: ReasonInput } | null; id?: number;
  }
  | { kind: 'refund'; at: number; payment: Extract<Plan, { kind: 'payment' }> }
  | {
    kind: 'withdrawal'; at: number; user: GenUser; coin: CoinSymbol | null; share: number; outcome: 'requested' | 'approved' | 'completed' | 'rejected' | 'failed';
    auto: boolean; reviewAt: number; processAt: number; amount?: bigint;
  }
  | { kind: 'block'; at: number; user: GenUser; reason: string };

export interface SeedMoneyOptions {
  /** Platform users to create (default 5,000). */
  users?: number;
  /** Share of the full money history (deposits, withdrawals, payments) to create, 0–1 (default 1); tests use less. */
  activity?: number;
  /** The story ends now (default: the current time). */
  now?: Date;
}

/** Volumes of the full-size story (activity 1). Every state appears at any activity (the showcase players). */
const FULL = { deposits: 1950, withdrawals: 230, topUps: 130, packs: 90, blocked: 0.008 };
const SEED_LOCK = ADVISORY_LOCKS.demoSeed;
const META_KEY = 'demo_money_seeded_at';
const PLATFORM = { kind: 'platform', ip: '203.0.113.10' } as const satisfies Actor;
const WATCHER = systemActor('deposit-watcher');
const SENDER = systemActor('withdrawal-sender');
const WEBHOOK = systemActor('payments-webhook');
/** What the platform may auto-approve during the seed, in minor units (250 USDC); restored afterwards. */
const AUTO_LIMIT = 250n * MICRO_USDC;
/** From this amount a USDC withdrawal takes two approvals (the demo's setting). */
const SECOND_APPROVAL_USDC = 1_000n * MICRO_USDC;

/**
 * Seeds the demo platform's players and a year of their money (see the notes at the top). Returns
 * true when it seeded; false when it ran before or the database already has users.
 */
export async function seedMoney(db: Db, log: Pick<Logger, 'info'>, opts: SeedMoneyOptions = {}): Promise<boolean> {
  const started = Date.now();
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(SEED_LOCK))})`);
    const [done] = await tx.select().from(appMeta).where(eq(appMeta.key, META_KEY));
    if (done) return null;
    const [existing] = await queryRows<{ n: number | string }>(tx, sql`select count(*) as n from users`);
    if (Number(existing?.n ?? 0) > 0) {
      log.info('demo money not seeded: the database already has users');
      return null;
    }
    const counts = await seedInTransaction(tx, opts);
    if (typeof counts === 'string') {
      log.info(`demo money not seeded: ${counts}`);
      return null;
    }
    await tx.insert(appMeta).values({ key: META_KEY, value: new Date().toISOString() });
    return counts;
  });
  if (!result) return false;
  log.info({ ...result, seconds: Number(((Date.now() - started) / 1000).toFixed(1)) }, 'demo money seeded');
  return true;
}

async function seedInTransaction(tx: DbOrTx, opts: SeedMoneyOptions) {
  const r = new Random(20_260_611);
  const now = (opts.now ?? new Date()).getTime();
  const activity = Math.max(0, Math.min(1, opts.activity ?? 1));
  const userCount = Math.max(20, opts.users ?? 5000);

  // Who acts: the super admin creates coins and blocks players, the finance sub-admin reviews money.
  const [root] = await tx.select().from(admins).where(eq(admins.role, 'superadmin')).orderBy(asc(admins.id)).limit(1);
  const [leo] = await tx.select().from(admins).where(eq(admins.email, 'leo.finance@pitboss.local'));
  const rootActor: Actor = root ? adminActor(root, '81.2.69.142') : systemActor('demo-seed');
  const financeActor: Actor = leo ? adminActor(leo, '81.2.69.160') : rootActor;
  const reviewer = () => (r.chance(0.75) ? financeActor : rootActor);

  // ── Coins: SOL and devnet USDC, which bootstrap creates in every mode (created here if missing).
  const coin = {} as Record<CoinSymbol, { id: number; min: bigint; fee: bigint }>;
  for (const c of PLATFORM_COINS) {
    const row = (await coinBySymbol(tx, c.symbol)) ?? (await createCoin(tx, rootActor, { ...c }));
    if (row.status !== 'active' || !row.depositEnabled || !row.withdrawEnabled) return `${c.symbol} is inactive or has deposits or withdrawals turned off`;
    coin[c.symbol] = { id: row.id, min: row.minWithdrawal, fee: row.withdrawalFee };
  }
  // They were the platform's first configuration: a little over a year old in the story.
  const coinBirth = new Date(now - 372 * DAY).toISOString();
  await tx.execute(sql`update coins set created_at = ${coinBirth}::timestamptz, updated_at = ${coinBirth}::timestamptz where symbol in ('SOL', 'USDC')`);

  // ── Users: a year of signups, growing, with a launch week, three campaigns and weekends.
  const firstDay = Math.floor(now / DAY) * DAY - 364 * DAY;
  const dayWeights: number[] = [];
  for (let i = 0; i < 365; i++) {
    const t = i / 364;
    let w = 0.22 + 1.1 * t ** 1.7;
    if (i < 10) w += 0.9 * (1 - i / 10);
    for (const [center, height, width] of [[150, 0.6, 3], [236, 0.8, 2.5], [318, 0.9, 4]] as const) w += height * Math.exp(-(((i - center) / width) ** 2));
    w *= WEEKDAY_WEIGHTS[new Date(firstDay + i * DAY).getUTCDay()]! * (0.85 + 0.3 * r.next());
    if (i === 364) w *= Math.max(0.05, (now - (firstDay + i * DAY)) / DAY);
    dayWeights.push(w);
  }
  const cumulative: number[] = [];
  for (const w of dayWeights) cumulative.push((cumulative[cumulative.length - 1] ?? 0) + w);
  const total = cumulative[cumulative.length - 1]!;
  const hourEntries = HOUR_WEIGHTS.map((w, h) => [h, w] as const);
  const signupTime = (): number => {
    const x = r.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    const t = firstDay + lo * DAY + r.weighted(hourEntries) * HOUR + Math.floor(r.next() * HOUR);
    return t < now ? t : firstDay + lo * DAY + Math.floor(r.next() * Math.max(MIN, now - (firstDay + lo * DAY)));
  };
  const taken = { usernames: new Set<string>(), emails: new Set<string>() };
  const wallets = new Set<string>();
  const gen: GenUser[] = [];
  for (let i = 0; i < userCount; i++) {
    const createdAt = signupTime();
    const person = makePerson(r, taken);
    let wallet: string | null = r.chance(0.88) ? r.address() : null;
    if (wallet && wallets.has(wallet)) wallet = null;
    if (wallet) wallets.add(wallet);
    const habit = r.next();
    const lastLoginAt = habit < 0.55
      ? Math.max(createdAt, now - r.between(0, 14 * DAY))
      : habit < 0.85 ? createdAt + r.between(0, now - createdAt) : Math.min(now, createdAt + r.between(0, 2 * DAY));
    const funds = r.chance(0.36);
    gen.push({
      person, ip: makeIp(r), wallet, createdAt, lastLoginAt, emailVerified: r.chance(0.82),
      weight: funds ? Math.min(40, 1 / (0.02 + r.next()) ** 0.8) : 0, cardOnly: !funds && r.chance(0.08), prefers: r.chance(0.6) ? 'USDC' : 'SOL', id: 0,
    });
  }
  gen.sort((a, b) => a.createdAt - b.createdAt);
  // A multi-accounting ring: six accounts from one address within an hour, blocked together.
  const ringStart = Math.floor(gen.length * 0.7);
  const ring = gen.slice(ringStart, ringStart + 6);
  for (const [k, u] of ring.entries()) {
    u.ip = '203.0.113.66';
    u.createdAt = ring[0]!.createdAt + k * 9 * MIN;
    u.lastLoginAt = u.createdAt + 20 * MIN;
    u.weight = 0;
  }
  gen.sort((a, b) => a.createdAt - b.createdAt);
  // Showcase players (long, rich histories for the user page): early signups who stayed.
  const veterans = gen.filter((u) => u.wallet && !ring.includes(u) && u.createdAt < now - 200 * DAY);
  const candidates = veterans.length >= 6 ? veterans : gen.filter((u) => u.wallet && !ring.includes(u));
  const showcase = [...new Set(Array.from({ length: Math.min(6, candidates.length) }, (_, k) => candidates[Math.floor(((k + 0.5) * candidates.length) / 6)]!))];
  for (const u of showcase) {
    u.weight = 30;
    u.lastLoginAt = now - r.between(10 * MIN, 20 * HOUR);
    u.emailVerified = true;
  }

  for (let i = 0; i < gen.length; i += 500) {
    const chunk = gen.slice(i, i + 500);
    const rows = await tx
      .insert(users)
      .values(chunk.map((u) => ({
        username: u.person.username, email: u.person.email, walletAddress: u.wallet, country: u.person.country, signupIp: u.ip,
        emailVerified: u.emailVerified, createdAt: new Date(u.createdAt), updatedAt: new Date(u.createdAt), lastLoginAt: new Date(u.lastLoginAt),
      })))
      .returning({ id: users.id, username: users.username });
    const idOf = new Map(rows.map((x) => [x.username, x.id]));
    for (const u of chunk) u.id = idOf.get(u.person.username)!;
    // The entry createUser writes (userAuditView), dated at the signup: the platform reported it.
    await tx.insert(auditLog).values(chunk.map((u) => ({
      actorKind: 'platform', adminId: null, adminEmail: 'platform', ip: PLATFORM.ip, action: 'create', resource: 'users', recordId: String(u.id),
      after: {
        username: u.person.username, email: u.person.email, walletAddress: u.wallet, status: 'active', blockedReason: null,
        emailVerified: u.emailVerified, country: u.person.country, signupIp: u.ip,
      },
      createdAt: new Date(u.createdAt),
    })));
  }

  // ── The money story, planned in memory first.
  const plans: Plan[] = [];
  const scaled = (n: number) => Math.round(n * activity);
  const sampler = (weightOf: (u: GenUser) => number) => {
    const pool = gen.filter((u) => weightOf(u) > 0);
    const cum: number[] = [];
    let sum = 0;
    for (const u of pool) {
      sum += weightOf(u);
      cum.push(sum);
    }
    return (): GenUser | null => {
      if (!pool.length) return null;
      const x = r.next() * sum;
      let lo = 0;
      let hi = cum.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cum[mid]! < x) lo = mid + 1;
        else hi = mid;
      }
      return pool[lo]!;
    };
  };
  const age = (u: GenUser) => (now - u.createdAt) / DAY;
  const after = (from: number, to = now) => (to > from ? from + r.next() * (to - from) : to);
  const coinFor = (u: GenUser): CoinSymbol => (r.chance(0.7) ? u.prefers : u.prefers === 'SOL' ? 'USDC' : 'SOL');
  const scaleFor = (u: GenUser) => (u.weight > 12 ? r.between(3, 12) : u.weight > 4 ? r.between(1.2, 3) : 1);

  const deposit = (u: GenUser, at: number, coin: CoinSymbol, outcome?: 'confirmed' | 'failed' | 'pending') => {
    const manual = r.chance(0.05);
    const settleAt = Math.min(now, at + (manual ? r.between(10 * MIN, 4 * HOUR) : r.between(25_000, 3 * MIN)));
    plans.push({
      kind: 'deposit', at, user: u, coin, amount: depositAmount(r, coin, scaleFor(u)), manual, settleAt,
      outcome: outcome ?? (r.chance(0.065) ? 'failed' : 'confirmed'),
    });
  };
  const payment = (u: GenUser, at: number, purpose: FiatPurpose, outcome?: 'succeeded' | 'failed' | 'pending', refund = false) => {
    const coin = purpose === 'coin_topup' ? (r.chance(0.75) ? 'USDC' : 'SOL') : null;
    const provider = purpose === 'coin_topup' ? r.weighted([['moonpay', 6], ['stripe', 4]] as const) : r.weighted([['stripe', 8], ['paypal', 2]] as const);
    const quote = coin ? topUpQuote(r, coin, u.person.country, at) : { ...packPrice(r, u.person.country), coinAmount: null };
    const settled = outcome ?? (r.chance(0.09) ? 'failed' : 'succeeded');
    const settleAt = Math.min(now, at + (settled === 'failed' ? r.between(MIN, 15 * MIN) : r.between(5_000, 90_000)));
    const plan: Extract<Plan, { kind: 'payment' }> = {
      kind: 'payment', at, user: u, purpose, provider, coin, amount: quote.amount, currency: quote.currency, coinAmount: quote.coinAmount,
      outcome: settled, settleAt, refund: refund ? { at: Math.min(now - MIN, settleAt + r.between(2 * HOUR, 5 * DAY)), reason: r.pick(REASONS.refund) } : null,
    };
    plans.push(plan);
    if (plan.refund) plans.push({ kind: 'refund', at: plan.refund.at, payment: plan });
  };
  const withdrawal = (u: GenUser, at: number, outcome?: Extract<Plan, { kind: 'withdrawal' }>['outcome'], auto = false, coin: CoinSymbol | null = null) => {
    const recent = now - at;
    const result = outcome ?? (recent < 30 * HOUR && r.chance(0.6) ? 'requested' : r.weighted([['completed', 86], ['rejected', 9], ['failed', 3], ['approved', 2]] as const));
    const reviewAt = auto ? at + 2_000 : Math.min(now, at + r.between(4 * MIN, 5 * HOUR));
    plans.push({
      kind: 'withdrawal', at, user: u, coin: auto ? 'USDC' : coin, share: r.chance(0.2) ? 1 : r.between(0.2, 0.9), outcome: result, auto, reviewAt,
      processAt: Math.min(now, reviewAt + r.between(20_000, 8 * MIN)),
    });
  };

  // Deposits: the first soon after the signup, the rest spread over the player's time with us.
  const depositor = sampler((u) => (u.cardOnly ? 0 : u.weight * Math.sqrt(age(u) + 1)));
  const depositedOnce = new Set<GenUser>();
  for (let i = 0; i < scaled(FULL.deposits); i++) {
    const u = depositor();
    if (!u) break;
    const first = !depositedOnce.has(u);
    depositedOnce.add(u);
    deposit(u, first ? Math.min(now - 40 * MIN, u.createdAt + r.between(3 * MIN, 2 * DAY)) : after(u.createdAt + HOUR, now - 40 * MIN), coinFor(u));
  }
  // Deposits seen in the last hours, still waiting for their confirmation.
  for (let i = 0; i < Math.max(3, scaled(30)); i++) {
    const u = depositor();
    if (u) deposit(u, now - r.between(2 * MIN, 3 * HOUR), coinFor(u), 'pending');
  }
  // Card payments: coin top-ups (by depositors and card-only players) and booster packs.
  const carder = sampler((u) => (u.cardOnly ? 3 : u.weight > 0 ? 0.5 + u.weight / 4 : 0));
  for (let i = 0; i < scaled(FULL.topUps); i++) {
    const u = carder();
    if (u) payment(u, after(u.createdAt + 10 * MIN, now - 45 * MIN), 'coin_topup', undefined, i % 97 === 50);
  }
  const packer = sampler((u) => (u.cardOnly ? 2 : u.weight > 0 ? 1 : 0.05));
  for (let i = 0; i < scaled(FULL.packs); i++) {
    const u = packer();
    if (u) payment(u, after(u.createdAt + 10 * MIN, now - 45 * MIN), 'pack_purchase', undefined, i % 83 === 40);
  }
  for (let i = 0; i < Math.max(2, scaled(6)); i++) {
    const u = carder();
    if (u) payment(u, now - r.between(MIN, 40 * MIN), r.chance(0.6) ? 'coin_topup' : 'pack_purchase', 'pending');
  }
  // Withdrawals: asked by funded players; the simulation below drops those that could not be paid.
  const withdrawer = sampler((u) => u.weight);
  for (let i = 0; i < scaled(FULL.withdrawals) * 1.6; i++) {
    const u = withdrawer();
    if (u) withdrawal(u, after(u.createdAt + DAY, now - 10 * MIN));
  }
  for (let i = 0; i < Math.max(3, scaled(24)); i++) {
    const u = withdrawer();
    if (u) withdrawal(u, now - r.between(15 * MIN, 30 * HOUR), r.chance(0.8) ? 'requested' : 'approved');
  }
  // A few small withdrawals to a whitelisted exchange address, approved by the platform at once.
  // (by players who deposited USDC before, so that most can be paid).
  const firstUsdc = new Map<GenUser, number>();
  for (const p of plans) if (p.kind === 'deposit' && p.coin === 'USDC' && p.outcome === 'confirmed') firstUsdc.set(p.user, Math.min(p.at, firstUsdc.get(p.user) ?? p.at));
  const usdcHolders = [...firstUsdc.keys()];
  const autoWanted = Math.max(3, scaled(8));
  for (let i = 0; usdcHolders.length && i < autoWanted * 3; i++) {
    const u = r.pick(usdcHolders);
    withdrawal(u, after(Math.max(firstUsdc.get(u)! + HOUR, now - 200 * DAY), now - 2 * HOUR), i % 4 === 0 ? 'approved' : 'completed', true);
  }
  // Showcase players: every kind of record, in both coins.
  for (const [k, u] of showcase.entries()) {
    for (let i = 0; i < 9; i++) deposit(u, after(u.createdAt + 10 * MIN, now - 3 * DAY), i % 3 === 0 ? 'SOL' : 'USDC');
    deposit(u, after(u.createdAt + 10 * MIN, now - DAY), 'USDC', 'failed');
    payment(u, after(u.createdAt + DAY, now - 20 * DAY), 'coin_topup', 'succeeded', k < 2);
    payment(u, after(u.createdAt + DAY, now - DAY), 'coin_topup', 'succeeded');
    payment(u, after(u.createdAt + DAY, now - DAY), 'pack_purchase', 'succeeded', k === 3);
    payment(u, after(u.createdAt + DAY, now - DAY), 'pack_purchase', 'failed');
    for (let i = 0; i < 4; i++) withdrawal(u, after(u.createdAt + 20 * DAY, now - 2 * DAY), 'completed', false, i % 2 ? 'SOL' : 'USDC');
    withdrawal(u, after(u.createdAt + 20 * DAY, now - 2 * DAY), 'rejected');
    withdrawal(u, after(u.createdAt + 20 * DAY, now - 2 * DAY), 'failed');
    withdrawal(u, now - r.between(HOUR, 20 * HOUR), k % 2 ? 'approved' : 'requested');
  }
  // Blocks: the ring, a handful of players for cause, and two blocked while a withdrawal waits.
  const blockAt = (u: GenUser) => Math.min(now - 5 * MIN, u.createdAt + r.between(HOUR, Math.max(HOUR, now - u.createdAt)));
  const ringAt = ring.length ? ring[ring.length - 1]!.createdAt + r.between(3 * HOUR, 30 * HOUR) : now;
  for (const u of ring) plans.push({ kind: 'block', at: Math.min(now - MIN, ringAt), user: u, reason: 'Multi-accounting: six accounts from one address within an hour' });
  const others = gen.filter((u) => !ring.includes(u) && !showcase.includes(u));
  for (let i = 0; i < Math.max(2, Math.round(userCount * FULL.blocked)); i++) {
    const u = r.pick(others);
    if (!plans.some((p) => p.kind === 'block' && p.user === u)) plans.push({ kind: 'block', at: blockAt(u), user: u, reason: r.pick(REASONS.block) });
  }
  const rich = others.filter((u) => u.weight > 5 && age(u) > 30 && !plans.some((p) => p.kind === 'block' && p.user === u));
  for (const u of rich.slice(0, 2)) {
    deposit(u, now - r.between(5 * DAY, 9 * DAY), 'USDC', 'confirmed');
    withdrawal(u, now - r.between(4 * HOUR, 6 * HOUR), 'requested', false, 'USDC');
    plans.push({ kind: 'block', at: now - r.between(HOUR, 3 * HOUR), user: u, reason: 'Withdrawal pattern matches a reported account takeover' });
  }

  // ── Replay in order, keeping balances in memory: a withdrawal takes a share of what the player
  // has at that moment; one that could not be paid, or by a player blocked by then, is dropped.
  plans.sort((a, b) => a.at - b.at);
  const balance = new Map<string, bigint>();
  const key = (u: GenUser, c: CoinSymbol) => `${u.id}:${c}`;
  const credit = (u: GenUser, c: CoinSymbol, amount: bigint) => balance.set(key(u, c), (balance.get(key(u, c)) ?? 0n) + amount);
  const blocked = new Set<GenUser>();
  const kept: Plan[] = [];
  let autoKept = 0;
  for (const p of plans) {
    if (p.kind === 'block') {
      if (blocked.has(p.user)) continue;
      blocked.add(p.user);
    } else if (p.kind === 'deposit') {
      if (p.outcome === 'confirmed') credit(p.user, p.coin, p.amount);
    } else if (p.kind === 'payment') {
      if (p.outcome === 'succeeded' && p.coin) credit(p.user, p.coin, p.coinAmount!);
    } else if (p.kind === 'refund') {
      const { payment: pay } = p;
      if (pay.outcome !== 'succeeded') continue;
      if (pay.coin) {
        if ((balance.get(key(pay.user, pay.coin)) ?? 0n) < pay.coinAmount!) {
          pay.refund = null;
          continue;
        }
        credit(pay.user, pay.coin, -pay.coinAmount!);
      }
    } else {
      if (blocked.has(p.user) || (p.auto && autoKept >= autoWanted)) continue;
      const usd = (c: CoinSymbol) => Number(balance.get(key(p.user, c)) ?? 0n) / (c === 'SOL' ? 1e9 / 160 : 1e6);
      const c = p.coin ?? (usd('SOL') > usd('USDC') ? 'SOL' : 'USDC');
      const { min, fee } = coin[c];
      const free = (balance.get(key(p.user, c)) ?? 0n) - fee;
      if (free < min) continue;
      const step = c === 'SOL' ? LAMPORTS / 1000n : MICRO_USDC;
      let amount = p.share >= 1 ? free : ((free * BigInt(Math.round(p.share * 1000))) / 1000n / step) * step;
      if (p.auto && amount > AUTO_LIMIT) amount = ((AUTO_LIMIT * BigInt(r.int(20, 95))) / 100n / step) * step;
      if (amount < min) amount = min;
      p.coin = c;
      p.amount = amount;
      if (p.outcome === 'completed' || p.outcome === 'requested' || p.outcome === 'approved') credit(p.user, c, -(amount + fee));
      if (p.auto) autoKept++;
    }
    kept.push(p);
  }

  // ── Execute through the services, in that order, collecting the story's timestamps.
  const whitelist = await queryRows<{ address: string }>(tx, sql`select address from whitelist_wallets order by id limit 5`);
  // The demo's "Exchange settlement" whitelisted wallet (made by seedDemo), or one made here.
  let exchange: string | undefined = whitelist[whitelist.length - 1]?.address;
  if (!exchange) {
    exchange = r.address();
    await tx.insert(whitelistWallets).values({ address: exchange, label: 'Exchange settlement', reason: 'Verified by finance', createdBy: root?.id ?? null, createdAt: new Date(now - 300 * DAY) });
  }
  // Whitelisted withdrawals up to AUTO_LIMIT minor units of their coin (250 USDC, 0.25 SOL) are approved at once.
  for (const c of Object.values(coin)) await tx.update(coins).set({ autoApproveLimit: AUTO_LIMIT }).where(eq(coins.id, c.id));

  const dated = { deposits: [] as [number, number, number | null][], withdrawals: [] as [number, number, number | null, number | null][], payments: [] as [number, number, number | null, number | null, number][], blocks: [] as [number, number][] };
  const counts = {
    users: gen.length, blockedUsers: 0,
    deposits: { pending: 0, confirmed: 0, failed: 0 },
    withdrawals: { requested: 0, approved: 0, completed: 0, rejected: 0, failed: 0, autoApproved: 0, awaitingSecondApproval: 0 },
    fiatPayments: { pending: 0, succeeded: 0, failed: 0, refunded: 0, coinTopUps: 0, packPurchases: 0 },
  };
  for (const p of kept) {
    if (p.kind === 'deposit') {
      const fromAddress = p.user.wallet && r.chance(0.7) ? p.user.wallet : r.address();
      const d = await recordDeposit(tx, actingAt(PLATFORM, p.at), { userId: p.user.id, coin: coin[p.coin].id, amount: p.amount, txSignature: r.signature(), fromAddress });
      const by = p.manual ? financeActor : WATCHER;
      if (p.outcome === 'confirmed') await confirmDeposit(tx, actingAt(by, p.settleAt), d.id);
      else if (p.outcome === 'failed') await failDeposit(tx, actingAt(by, p.settleAt), d.id, r.pick(REASONS.depositFailed));
      dated.deposits.push([d.id, p.at, p.outcome === 'pending' ? null : p.settleAt]);
      counts.deposits[p.outcome]++;
    } else if (p.kind === 'payment') {
      const row = await recordFiatPayment(tx, actingAt(PLATFORM, p.at), {
        userId: p.user.id, provider: p.provider, providerReference: providerReference(r, p.provider), amount: p.amount, currency: p.currency,
        purpose: p.purpose, coin: p.coin ? coin[p.coin].id : null, coinAmount: p.coinAmount,
      });
      if (p.outcome === 'succeeded') await succeedFiatPayment(tx, actingAt(WEBHOOK, p.settleAt), row.id);
      else if (p.outcome === 'failed') await failFiatPayment(tx, actingAt(WEBHOOK, p.settleAt), row.id, { reason: r.pick(REASONS.paymentFailed) });
      p.id = row.id;
      dated.payments.push([row.id, p.at, p.outcome === 'succeeded' ? p.settleAt : null, null, p.outcome === 'pending' ? p.at : p.settleAt]);
      counts.fiatPayments[p.refund && p.outcome === 'succeeded' ? 'refunded' : p.outcome]++;
      counts.fiatPayments[p.purpose === 'coin_topup' ? 'coinTopUps' : 'packPurchases']++;
    } else if (p.kind === 'refund') {
      await refundFiatPayment(tx, actingAt(financeActor, p.at), p.payment.id!, p.payment.refund!.reason);
      const row = dated.payments.find((x) => x[0] === p.payment.id)!;
      row[3] = p.at;
      row[4] = p.at;
    } else if (p.kind === 'block') {
      await blockUser(tx, actingAt(rootActor, p.at), p.user.id, { reason: p.reason });
      dated.blocks.push([p.user.id, p.at]);
      counts.blockedUsers++;
    } else {
      const toAddress = p.auto ? exchange : p.user.wallet && r.chance(0.75) ? p.user.wallet : r.address();
      let w = await requestWithdrawal(tx, actingAt(PLATFORM, p.at), { userId: p.user.id, coin: coin[p.coin!].id, amount: p.amount!, toAddress });
      if (p.auto !== w.autoApproved) throw new Error(`demo seed: withdrawal ${w.id} auto-approval ${w.autoApproved}, planned ${p.auto}`);
      if (p.outcome === 'rejected') w = await rejectWithdrawal(tx, actingAt(reviewer(), p.reviewAt), w.id, r.pick(REASONS.withdrawalRejected));
      else if (p.outcome !== 'requested') {
        if (!p.auto) w = await approveWithdrawal(tx, actingAt(reviewer(), p.reviewAt), w.id);
        if (p.outcome === 'completed') w = await completeWithdrawal(tx, actingAt(SENDER, p.processAt), w.id, { txSignature: r.signature() });
        else if (p.outcome === 'failed') w = await failWithdrawal(tx, actingAt(SENDER, p.processAt), w.id, r.pick(REASONS.withdrawalFailed));
      }
      const reviewed = p.outcome === 'requested' ? null : p.reviewAt;
      const processed = p.outcome === 'completed' || p.outcome === 'failed' ? p.processAt : null;
      dated.withdrawals.push([w.id, p.at, reviewed, processed]);
      counts.withdrawals[p.outcome]++;
      if (p.auto) counts.withdrawals.autoApproved++;
    }
  }
  // ── Four eyes, after the story: Leo and a second finance admin (Zoe) hold Withdraw › approve; a
  // withdrawal from 1,000 USDC or 25 SOL takes both; the two largest USDC holders have asked for
  // most of what they hold, which Leo approved first: they wait in Zoe's (and the super admin's)
  // "Awaiting my approval".
  if (leo && root) {
    // Both also correct balances by hand (Users › adjust-balance), which takes both from 500 USDC or 10 SOL.
    const withApprove = (list: readonly object[]) => [
      ...list.map((e) => ((e as { name: string }).name === 'Withdraw' ? { ...e, rights: ['approve'] } : e)),
      { name: 'Users', canView: true, canEdit: false, rights: ['adjust-balance'] },
      { name: 'Reconciliation', canView: true, canEdit: false },
    ];
    await tx.update(admins).set({ restriction: withApprove(leo.restriction) as typeof leo.restriction }).where(eq(admins.id, leo.id));
    const zoeRights = [
      { name: 'Deposit', canView: true, canEdit: false }, { name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] },
      { name: 'Users', canView: true, canEdit: false, rights: ['adjust-balance'] }, { name: 'Notification', canView: true, canEdit: false },
      { name: 'Reconciliation', canView: true, canEdit: true },
    ];
    const zoeSince = new Date(now - 41 * DAY);
    await tx.insert(admins).values({
      name: 'Zoe Marsh', email: 'zoe.finance@pitboss.local', passwordHash: leo.passwordHash, role: 'subadmin', restriction: zoeRights as typeof leo.restriction,
      createdBy: root.id, createdAt: zoeSince, updatedAt: zoeSince, lastLoginAt: new Date(now - DAY),
    }).onConflictDoNothing();
    await tx.update(coins).set({ secondApprovalThreshold: SECOND_APPROVAL_USDC }).where(eq(coins.id, coin.USDC.id));
    await tx.update(coins).set({ secondApprovalThreshold: 25n * LAMPORTS }).where(eq(coins.id, coin.SOL.id));
    const richest = await queryRows<{ user_id: number | string; balance: string }>(tx, sql`
      select a.user_id, a.balance::text as balance from ledger_accounts a join users u on u.id = a.user_id
      where a.coin_id = ${coin.USDC.id} and a.bucket = 'available' and u.status = 'active' and not u.house
      order by a.balance desc, a.user_id limit 2`);
    // Most of what they hold, in whole USDC: at or above the threshold, so it takes two approvals.
    // The story's balances depend on the day it is told: a holder short of twice the threshold
    // first gets a deposit that brings them there (two days ago), so both always wait.
    for (const [i, rich] of richest.entries()) {
      let balance = BigInt(rich.balance);
      if (balance < 2n * SECOND_APPROVAL_USDC) {
        const at = now - 2 * DAY - i * HOUR;
        const d = await recordDeposit(tx, actingAt(PLATFORM, at), { userId: Number(rich.user_id), coin: coin.USDC.id, amount: 2n * SECOND_APPROVAL_USDC - balance, txSignature: r.signature(), fromAddress: r.address() });
        await confirmDeposit(tx, actingAt(WATCHER, at + 10 * 60_000), d.id);
        dated.deposits.push([d.id, at, at + 10 * 60_000]);
        counts.deposits.confirmed++;
        balance = 2n * SECOND_APPROVAL_USDC;
      }
      const amount = ((balance * BigInt(60 + 15 * i)) / 100n / MICRO_USDC) * MICRO_USDC;
      const w = await requestWithdrawal(tx, actingAt(PLATFORM, now - (5 - i) * HOUR), { userId: Number(rich.user_id), coin: coin.USDC.id, amount, toAddress: r.address() });
      await approveWithdrawal(tx, actingAt(financeActor, now - (3 - i) * HOUR), w.id);
      dated.withdrawals.push([w.id, now - (5 - i) * HOUR, null, null]);
      counts.withdrawals.awaitingSecondApproval++;
    }

    // Balance adjustments: a few corrections of the last days (one reversed the same day), and a
    // large credit Leo asked for two hours ago that waits in Zoe's queue.
    await tx.update(coins).set({ adjustmentApprovalThreshold: 500n * MICRO_USDC }).where(eq(coins.id, coin.USDC.id));
    await tx.update(coins).set({ adjustmentApprovalThreshold: 10n * LAMPORTS }).where(eq(coins.id, coin.SOL.id));
    const some = await queryRows<{ id: number | string }>(tx, sql`select id from users where status = 'active' and not house order by id limit 4`);
    const [u0, u1, u2, u3] = some.map((u) => Number(u.id));
    if (u3 !== undefined) {
      await adjustBalance(tx, actingAt(financeActor, now - 9 * DAY), { userId: u0!, coin: coin.USDC.id, amount: 25n * MICRO_USDC, reasonCode: 'goodwill', reason: 'Payout delayed by the 14 Nov outage' });
      await adjustBalance(tx, actingAt(rootActor, now - 6 * DAY), { userId: u1!, coin: coin.SOL.id, amount: LAMPORTS / 5n, reasonCode: 'missed_deposit', reason: 'Sent to an expired deposit address; confirmed on chain' });
      const bonus = await adjustBalance(tx, actingAt(financeActor, now - 4 * DAY), { userId: u2!, coin: coin.USDC.id, amount: 40n * MICRO_USDC, reasonCode: 'promotion', reason: 'Referral bonus' });
      await reverseAdjustment(tx, actingAt(rootActor, now - 4 * DAY + 2 * HOUR), bonus.adjustment.id, { reasonCode: 'wrong_user', reason: 'The bonus was the referrer’s' });
      await adjustBalance(tx, actingAt(financeActor, now - 2 * HOUR), { userId: u3, coin: coin.USDC.id, amount: 1_500n * MICRO_USDC, reasonCode: 'missed_deposit', reason: 'Wire received by the treasury on 27 Nov, ref TR-88412' });
    }
  }

  // After the story (which never needed them): a daily limit per user, per coin.
  await tx.update(coins).set({ dailyWithdrawalLimit: 20_000n * MICRO_USDC }).where(eq(coins.id, coin.USDC.id));
  await tx.update(coins).set({ dailyWithdrawalLimit: 150n * LAMPORTS }).where(eq(coins.id, coin.SOL.id));

  // The story's mails (deposit confirmed, withdrawal approved or rejected) were queued by the
  // services as they ran; they belong to the past the story tells, so they are not sent now.
  await tx.execute(sql`delete from mail_outbox where template_key in ('deposit_confirmed', 'withdrawal_approved', 'withdrawal_rejected')`);

  // ── Re-date the money records to the story (the ledger and the audit log were written dated: see the top).
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  const inChunks = async <T>(rows: T[], toValues: (row: T) => SQL, update: (values: SQL) => SQL) => {
    for (let i = 0; i < rows.length; i += 1000) await tx.execute(update(sql.join(rows.slice(i, i + 1000).map(toValues), sql`, `)));
  };
  await inChunks(
    dated.deposits,
    ([id, c, s]) => sql`(${id}::bigint, ${iso(c)}::timestamptz, ${iso(s)}::timestamptz)`,
    (values) => sql`update deposits d set created_at = v.c, updated_at = coalesce(v.s, v.c),
      confirmed_at = case when d.confirmed_at is null then null else v.s end,
      reviewed_at = case when d.reviewed_at is null then null else v.s end
      from (values ${values}) as v(id, c, s) where d.id = v.id`,
  );
  await inChunks(
    dated.withdrawals,
    ([id, c, rv, pr]) => sql`(${id}::bigint, ${iso(c)}::timestamptz, ${iso(rv)}::timestamptz, ${iso(pr)}::timestamptz)`,
    (values) => sql`update withdrawals w set created_at = v.c, updated_at = coalesce(v.p, v.r, v.c),
      reviewed_at = case when w.reviewed_at is null then null else v.r end,
      processed_at = case when w.processed_at is null then null else v.p end
      from (values ${values}) as v(id, c, r, p) where w.id = v.id`,
  );
  await inChunks(
    dated.payments,
    ([id, c, s, rf, u]) => sql`(${id}::bigint, ${iso(c)}::timestamptz, ${iso(s)}::timestamptz, ${iso(rf)}::timestamptz, ${iso(u)}::timestamptz)`,
    (values) => sql`update fiat_payments f set created_at = v.c, updated_at = v.u,
      succeeded_at = case when f.succeeded_at is null then null else v.s end,
      refunded_at = case when f.refunded_at is null then null else v.rf end
      from (values ${values}) as v(id, c, s, rf, u) where f.id = v.id`,
  );
  await inChunks(
    dated.blocks,
    ([id, at]) => sql`(${id}::bigint, ${iso(at)}::timestamptz)`,
    (values) => sql`update users u set blocked_at = v.at, updated_at = v.at, last_login_at = least(u.last_login_at, v.at)
      from (values ${values}) as v(id, at) where u.id = v.id`,
  );
  return counts;
}
