import bs58 from 'bs58';
import { slugify } from '../lib/slug.js';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import {
  admins, appMeta, auditLog, blockedIps, blockedWallets, faqs, loginHistory, supportCategories, tags, whitelistWallets,
} from '../db/schema.js';
import { hashPassword } from '../lib/passwords.js';
import { seedMarkets } from './markets.js';
import { seedMoney, type SeedMoneyOptions } from './money.js';
import { seedTrading } from './trading.js';
import { seedContent } from './content.js';
import { seedBots } from './bots.js';
import { seedCards } from './cards.js';
import type { ImageStore } from '../modules/uploads/storage.js';
import { seedSupport } from './support.js';
import { seedReconciliation } from './reconciliation.js';
import { seedPacks } from './packs.js';

/** Password of every demo sub-admin (demo mode only; printed at start). */
export const DEMO_SUBADMIN_PASSWORD = 'Demo-Pass-2026';

/** Deterministic pseudo-random numbers, so every demo database looks the same. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = rng(20261122);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const daysAgo = (d: number, jitterHours = 0) => new Date(Date.now() - d * 86_400_000 - Math.floor(rand() * jitterHours * 3_600_000));
const solanaAddress = () => bs58.encode(Uint8Array.from(Array.from({ length: 32 }, () => Math.floor(rand() * 256))));

const SUB_ADMINS = [
  { name: 'Maya Okafor', email: 'maya.support@pitboss.local', status: 'active', rights: [['Support Ticket', 'edit'], ['Support Reply', 'edit'], ['Support category', 'edit'], ['FAQ', 'edit'], ['CMS Pages', 'edit'], ['Email Templates', 'view'], ['Users', 'view'], ['Notification', 'view']] },
  { name: 'Leo Brandt', email: 'leo.finance@pitboss.local', status: 'active', rights: [['Deposit', 'view'], ['Withdraw', 'edit'], ['Payment History', 'view'], ['Admin Profit', 'view'], ['Wallet Address', 'edit'], ['Whitelist Wallet Address', 'edit'], ['Notification', 'view']] },
  { name: 'Ana Reyes', email: 'ana.cards@pitboss.local', status: 'active', rights: [['CardTier', 'edit'], ['Category', 'edit'], ['Character', 'edit'], ['Boostercards', 'edit'], ['Booster Packs', 'view'], ['Rewardcards', 'edit']] },
  { name: 'Sam Whitaker', email: 'sam.markets@pitboss.local', status: 'active', rights: [['Series', 'edit'], ['Events', 'edit'], ['Markets', 'edit'], ['Trade Bot', 'edit'], ['Trade History', 'view'], ['Tags', 'edit'], ['Notification', 'view']] },
  { name: 'Noah Kim', email: 'noah.support@pitboss.local', status: 'active', rights: [['Support Ticket', 'edit'], ['Support Reply', 'edit'], ['Users', 'view'], ['Notification', 'view']] },
  { name: 'Ivy Chen', email: 'ivy.audit@pitboss.local', status: 'active', rights: [['Audit Log', 'view'], ['Sub Admin', 'view'], ['Ip Address', 'view'], ['Site Setting', 'view']] },
  { name: 'Tom Varga', email: 'tom.contractor@pitboss.local', status: 'disabled', rights: [['FAQ', 'view'], ['Tags', 'view']] },
] as const;

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
];
const OFFICE_IPS = ['81.2.69.142', '81.2.69.160', '2a02:c7f:1234::17', '89.160.20.112', '175.16.199.5'];

const FAQS: [string, string, string][] = [
  ['How do I deposit SOL or USDC?', '<p>Open <strong>Wallet → Deposit</strong>, choose the coin and send it to the address shown. Deposits are credited after confirmation on chain.</p>', 'Payments'],
  ['How long do withdrawals take?', '<p>Most withdrawals are reviewed within an hour. Large withdrawals may need a second review.</p>', 'Payments'],
  ['Why was my withdrawal rejected?', '<p>A withdrawal is rejected when the address is on a block list or the account needs verification. The funds return to your balance.</p>', 'Payments'],
  ['What are the card tiers?', '<p>Common, Rare, Epic and Legendary. Higher tiers drop less often.</p>', 'Cards'],
  ['How are booster pack odds decided?', '<p>Each pack shows its tier odds. Openings use a server seed committed before the draw and revealed after it, so anyone can verify them.</p>', 'Cards'],
  ['Can I trade cards with other players?', '<p>Not yet. Trading between players is planned.</p>', 'Cards'],
  ['What is a prediction market?', '<p>A market asks a YES/NO question. A share pays 100 cents if its outcome happens, 0 otherwise; prices between 1 and 99 cents show what traders expect.</p>', 'Markets'],
  ['What do GTC, IOC and GTD mean?', "<p><strong>GTC</strong>: Good 'Til Canceled. <strong>IOC</strong>: Immediate Or Cancel. <strong>GTD</strong>: Good 'Til Date.</p>", 'Markets'],
  ['How is a market resolved?', '<p>After the event, an admin resolves each market to YES, NO or VOID with a source. Winning shares pay 100 cents; VOID refunds the cost.</p>', 'Markets'],
  ['Which fees do I pay?', '<p>Takers pay a small fee on each trade; makers pay none. The rates are shown before you confirm an order.</p>', 'Markets'],
  ['How do I contact support?', '<p>Open a ticket from <em>Help → Support</em>; we answer within one business day.</p>', 'Account'],
  ['How do I close my account?', '<p>Withdraw your balance, then open a ticket in the <em>Account</em> category.</p>', 'Account'],
];

const TAGS = ['Politics', 'Elections', 'Sports', 'Football', 'Basketball', 'Crypto', 'Bitcoin', 'Solana', 'Economy', 'Interest Rates', 'Weather', 'Entertainment', 'Awards', 'Technology', 'Science'];
const SUPPORT_CATEGORIES = ['Deposits', 'Withdrawals', 'Cards & Packs', 'Markets & Orders', 'Account & Security', 'Other'];

export interface SeedDemoOptions {
  /** Called before each part: its name, and how many of all are done (the first start's progress). */
  onPart?: (progress: { step: string; done: number; total: number }) => void;
  /** Called after each part that seeded something (not on a restart over seeded data). */
  onSeeded?: (progress: { step: string; done: number; total: number; seconds: number }) => void;
  /** Size of the players-and-money part (seedMoney); tests make it smaller. */
  money?: SeedMoneyOptions;
  /** Orders placed per open market (seedTrading). */
  trading?: { ordersPerMarket?: number };
  /** Where the card art goes (the app's image store); without one the demo cards have no images. */
  images?: ImageStore;
  /** Where the support tickets' attachments are stored (DATA_DIR); without it the demo tickets have none. */
  dataDir?: string;
}

/**
 * A lived-in back-office on first start in demo mode: sub-admins with
 * different rights and their sign-in history, block lists, FAQ, tags,
 * support categories and the audit trail of their creation, the
 * prediction-market catalogue (seedMarkets: series, events, markets), then the
 * platform's players and a year of their money (seedMoney), then their orders on the open
 * markets (seedTrading), then the trade bots that make markets on them (seedBots). Each part runs
 * once per database (remembered in app_meta). True when something was seeded.
 */
export async function seedDemo(db: Db, log: Pick<Logger, 'info'>, opts: SeedDemoOptions = {}): Promise<boolean> {
  // Each part seeds once (a key in app_meta) and in order: a later part reads what an earlier one wrote.
  const parts: { name: string; run: () => Promise<boolean> }[] = [
    { name: 'sub-admins and their history', run: () => seedBackOffice(db, log) },
    { name: 'the markets catalogue', run: () => seedMarkets(db, log) },
    { name: 'a year of players, deposits, withdrawals and payments', run: () => seedMoney(db, log, opts.money) },
    // Players with USDC trade the open markets through the order service.
    { name: 'trading on the open markets', run: () => seedTrading(db, log, opts.trading) },
    // Market makers quoting the open markets (the trade-bot job runs them from its first tick).
    { name: 'trade bots', run: () => seedBots(db, log) },
    // Card tiers, categories and characters with their art, and reward cards owned by players.
    { name: 'the card catalogue', run: () => seedCards(db, log, opts.images) },
    // CMS pages (the email templates exist in every mode: bootstrap).
    { name: 'CMS pages', run: () => seedContent(db, log) },
    // Support tickets of those players, answered by the support sub-admins; the first notifications.
    { name: 'support tickets', run: () => seedSupport(db, log, { ...(opts.dataDir ? { dataDir: opts.dataDir } : {}) }) },
    // Booster packs bought and opened, offline stores with codes, reward cards (after the card catalogue).
    { name: 'booster packs and offline stores', run: () => seedPacks(db, log, opts.images) },
    // Last, once every ledger entry of the story is written: the custody reports of the last week, reconciled.
    { name: 'custody reports and reconciliation', run: () => seedReconciliation(db, log) },
  ];
  let seeded = false;
  for (const [i, part] of parts.entries()) {
    opts.onPart?.({ step: part.name, done: i, total: parts.length });
    const t = Date.now();
    if (await part.run()) {
      seeded = true;
      opts.onSeeded?.({ step: part.name, done: i + 1, total: parts.length, seconds: (Date.now() - t) / 1000 });
    }
  }
  return seeded;
}

async function seedBackOffice(db: Db, log: Pick<Logger, 'info'>): Promise<boolean> {
  const [done] = await db.select().from(appMeta).where(eq(appMeta.key, 'demo_seeded_at'));
  if (done) return false;
  const [root] = await db.select().from(admins).where(eq(admins.role, 'superadmin')).limit(1);
  const rootActor = { adminId: root?.id ?? null, adminEmail: root?.email ?? 'system', ip: '127.0.0.1' };

  await db.transaction(async (tx) => {
    const passwordHash = await hashPassword(DEMO_SUBADMIN_PASSWORD);
    const created: { id: number; email: string; status: string }[] = [];
    for (const [i, a] of SUB_ADMINS.entries()) {
      const restriction = a.rights.map(([name, level]) => ({ name, canView: true, canEdit: level === 'edit' }));
      const createdAt = daysAgo(60 - i * 5);
      const [row] = await tx
        .insert(admins)
        .values({ name: a.name, email: a.email, passwordHash, role: 'subadmin', restriction, status: a.status, createdAt, updatedAt: createdAt, lastLoginAt: a.status === 'active' ? daysAgo(i % 3, 10) : daysAgo(20) })
        .onConflictDoNothing()
        .returning();
      if (!row) continue;
      created.push({ id: row.id, email: row.email, status: row.status });
      await tx.insert(auditLog).values({ ...rootActor, action: 'create', resource: 'sub-admins', recordId: String(row.id), after: { name: a.name, email: a.email, restriction }, createdAt });
    }
    // Sign-in history: a month of mostly successful sign-ins, some typos, one burst from an unknown address.
    const history: (typeof loginHistory.$inferInsert)[] = [];
    for (const a of created) {
      const ip = pick(OFFICE_IPS);
      const ua = pick(USER_AGENTS);
      for (let d = 30; d >= (a.status === 'active' ? 0 : 20); d--) {
        if (rand() < 0.25) continue;
        if (rand() < 0.15) history.push({ adminId: a.id, email: a.email, success: false, reason: 'wrong password', ip, userAgent: ua, createdAt: daysAgo(d, 9) });
        history.push({ adminId: a.id, email: a.email, success: true, ip: rand() < 0.1 ? pick(OFFICE_IPS) : ip, userAgent: ua, createdAt: daysAgo(d, 8) });
      }
    }
    const target = created[1];
    if (target) for (let k = 0; k < 6; k++) history.push({ adminId: target.id, email: target.email, success: false, reason: 'wrong password', ip: '185.220.101.47', userAgent: 'python-requests/2.32', createdAt: daysAgo(3, 1) });
    history.sort((x, y) => (x.createdAt as Date).getTime() - (y.createdAt as Date).getTime());
    if (history.length) await tx.insert(loginHistory).values(history);
    // Last sign-in agrees with the history just written.
    await tx.execute(sql`update admins set last_login_at = (select max(created_at) from login_history h where h.admin_id = admins.id and h.success)
                         where role = 'subadmin'`);

    const ips: [string, string][] = [
      ['185.220.101.0/24', 'Tor exit nodes hammering the sign-in form'],
      ['45.155.205.233/32', 'Credential stuffing, 2,000 attempts in an hour'],
      ['193.42.33.0/24', 'Scraping market prices'],
      ['103.152.118.72/32', 'Repeated withdrawal-address probing'],
      ['2a0d:5600:24::/48', 'Abusive IPv6 range (bot farm)'],
      ['141.98.11.0/24', 'Brute force on support tickets'],
      ['5.188.62.140/32', 'Fake signup wave'],
      ['194.26.29.0/24', 'Reported by the hosting provider'],
    ];
    for (const [i, [address, reason]] of ips.entries()) {
      const createdAt = daysAgo(40 - i * 4, 12);
      const [row] = await tx.insert(blockedIps).values({ address, reason, createdBy: root?.id ?? null, createdAt, updatedAt: createdAt }).onConflictDoNothing().returning();
      if (row) await tx.insert(auditLog).values({ ...rootActor, action: 'create', resource: 'blocked-ips', recordId: String(row.id), after: { address, reason }, createdAt });
    }

    const blockedReasons = ['Linked to a phishing kit', 'Sanctions screening hit', 'Chargeback fraud ring', 'Drainer contract owner', 'Reported by an exchange', 'Mixer withdrawal address'];
    for (const [i, reason] of blockedReasons.entries()) {
      await tx.insert(blockedWallets).values({ address: solanaAddress(), label: `Case #${4100 + i * 7}`, reason, createdBy: root?.id ?? null, createdAt: daysAgo(35 - i * 5, 6) });
    }
    for (const [i, label] of ['Treasury cold wallet', 'Market maker hot wallet', 'Partner: Arcadia Games', 'Payroll multisig', 'Exchange settlement'].entries()) {
      await tx.insert(whitelistWallets).values({ address: solanaAddress(), label, reason: 'Verified by finance', createdBy: root?.id ?? null, createdAt: daysAgo(50 - i * 8, 6) });
    }

    for (const [i, [question, answer, category]] of FAQS.entries()) {
      const createdAt = daysAgo(45 - i * 3, 12);
      const [row] = await tx.insert(faqs).values({ question, answer, category, sortOrder: i + 1, status: i === 5 ? 'inactive' : 'active', createdAt, updatedAt: createdAt }).returning();
      await tx.insert(auditLog).values({ adminId: created[0]?.id ?? null, adminEmail: created[0]?.email ?? 'system', ip: OFFICE_IPS[0]!, action: 'create', resource: 'faqs', recordId: String(row!.id), after: { question, category }, createdAt });
    }
    for (const name of TAGS) {
      await tx.insert(tags).values({ name, slug: slugify(name, 'tag'), createdAt: daysAgo(50, 48) }).onConflictDoNothing();
    }
    for (const [i, name] of SUPPORT_CATEGORIES.entries()) {
      await tx.insert(supportCategories).values({ name, sortOrder: i + 1, createdAt: daysAgo(55, 24) }).onConflictDoNothing();
    }
    await tx.insert(appMeta).values({ key: 'demo_seeded_at', value: new Date().toISOString() });
  });
  log.info('demo data seeded');
  return true;
}

