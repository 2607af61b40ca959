import type { EventStatus, MarketCategory, MarketResult, MarketStatus, SeriesFrequency } from '@pitboss/contract';
import { slugify } from '../lib/slug.js';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../db/client.js';
import { admins, appMeta, auditLog, eventTags, events, markets, series, seriesTags, tags } from '../db/schema.js';
import { Random } from './money.js';

/*
 * The demo's prediction-market catalogue: a few series (weekly Bitcoin and Solana closes, monthly
 * US CPI, the daily New York high temperature, and a retired Ether series), about twenty events
 * over the past weeks and the coming ones, and about sixty markets in every state, tagged.
 *
 * Rules this seed keeps:
 * - Everything is placed relative to the start time: events whose close time has passed are closed
 *   (the latest of each series, its markets awaiting resolution) or settled (older ones: every
 *   market resolved or voided, with its result); events under way are open with open markets (a few
 *   halted); upcoming events are open (the next of each series: markets still draft because their
 *   open time has not come) or draft.
 * - Rows are inserted directly, not through the services: the services stamp "now" and refuse
 *   close times in the past, and this is history. The database CHECKs (time order, prices 1..99,
 *   results only when resolved or voided) still hold every row.
 * - Markets start with no price, volume or open interest: those come from real fills (seedTrading
 *   places orders through the order service). Markets of past events (closed, or settled) are
 *   inserted open and listed in app_meta `demo_markets_to_settle` with their story: seedTrading
 *   trades them, closes them through the market service and, for settled events, resolves them
 *   through the settlement (real payouts in the ledger), dated as the story has it.
 * - Each record gets the audit entries an admin would have left (created, opened, closed), dated
 *   in the story, by the markets sub-admin.
 * - Runs once per database (app_meta `demo_markets_seeded_at`), in one transaction.
 */

const META_KEY = 'demo_markets_seeded_at';
/** Markets of past events, to be traded, closed and (settled events) resolved by seedTrading. */
export const SETTLE_PLAN_KEY = 'demo_markets_to_settle';

/** One past market's story: when it closed and, if its event is settled, how it resolved. */
export interface SettlePlanItem {
  marketId: number;
  closedAt: string;
  resolve?: { result: MarketResult; source: string; evidence: string; evidenceUrls: string[]; at: string };
}
/** Why the demo's halted market is halted (the halt's reason code and note). */
const HALT = { haltReasonCode: 'pending_news', haltReason: 'Flight date slipped: waiting for the launch provider’s update' } as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface SeriesSeed {
  ticker: string;
  title: string;
  frequency: SeriesFrequency;
  category: MarketCategory;
  tags: string[];
  settlementSource: string;
  settlementUrl: string | null;
  status?: 'inactive';
  /** Trading limits its markets take (docs/markets.md, "Trading limits"); none: no limits. */
  limits?: { maxPosition: number; maxOrderSize: number };
}

const SERIES: SeriesSeed[] = [
  {
    ticker: 'KXBTCW', title: 'Bitcoin weekly close', frequency: 'weekly', category: 'Crypto', tags: ['Crypto', 'Bitcoin'],
    settlementSource: 'CF Benchmarks Bitcoin Real-Time Index (BRTI), 60-second average before Friday 17:00 ET', settlementUrl: 'https://www.cfbenchmarks.com/data/indices/BRTI',
    limits: { maxPosition: 5_000, maxOrderSize: 1_000 },
  },
  {
    ticker: 'KXSOLW', title: 'Solana weekly close', frequency: 'weekly', category: 'Crypto', tags: ['Crypto', 'Solana'],
    settlementSource: 'CF Benchmarks Solana-Dollar Reference Rate, Friday 17:00 ET', settlementUrl: 'https://www.cfbenchmarks.com/data/indices/SOLUSD_RR',
    limits: { maxPosition: 5_000, maxOrderSize: 1_000 },
  },
  {
    ticker: 'KXCPI', title: 'US CPI, month over month', frequency: 'monthly', category: 'Economics', tags: ['Economy', 'Interest Rates'],
    settlementSource: 'U.S. Bureau of Labor Statistics, CPI-U seasonally adjusted, first release', settlementUrl: 'https://www.bls.gov/cpi/',
    limits: { maxPosition: 2_500, maxOrderSize: 500 },
  },
  {
    ticker: 'KXHIGHNY', title: 'New York City daily high temperature', frequency: 'daily', category: 'Climate', tags: ['Weather'],
    settlementSource: 'NWS Daily Climate Report (CLI) for Central Park, NY, the morning after', settlementUrl: 'https://forecast.weather.gov/product.php?site=OKX&product=CLI&issuedby=NYC',
  },
  {
    ticker: 'KXETHW', title: 'Ether weekly close (retired)', frequency: 'weekly', category: 'Crypto', tags: ['Crypto'],
    settlementSource: 'CF Benchmarks Ether-Dollar Real-Time Index (ETHUSD_RTI), Friday 17:00 ET', settlementUrl: null, status: 'inactive',
  },
];

interface MarketSeed {
  ticker: string;
  title: string;
  rules: string;
  /** Whether the outcome happened (for settled events), from the story's figure. */
  yes: boolean;
  /** Fair YES price while trading, in cents. */
  fair: number;
  closesAt?: Date;
  /** Voided at settlement (a listing error, the source unavailable). */
  voided?: boolean;
  /** Halted while open (a news spike under review). */
  halted?: boolean;
}

interface EventSeed {
  series: string | null;
  ticker: string;
  title: string;
  description: string;
  tags: string[];
  openTime: Date;
  closeTime: Date;
  expectedResolutionTime: Date;
  /** Series events get theirs from their times (`placeInTime`); one-offs say it. */
  status?: EventStatus;
  markets: MarketSeed[];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const code = (d: Date) => `${String(d.getUTCFullYear()).slice(2)}${MONTHS[d.getUTCMonth()]!.toUpperCase()}${String(d.getUTCDate()).padStart(2, '0')}`;
const day = (d: Date) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
const usd = (n: number) => `$${n.toLocaleString('en-US')}`;
/** YES price of a threshold market given how far the figure sits from the strike (in spreads). */
const fairOf = (distance: number) => Math.max(2, Math.min(98, Math.round(100 / (1 + Math.exp(-distance * 1.6)))));

/** Every event of the story, relative to `now`. */
export function demoEvents(r: Random, now: number): EventSeed[] {
  const out: EventSeed[] = [];

  // Friday 22:00 UTC (17:00 ET in winter) closes, weekly.
  const nextFriday = new Date(now);
  nextFriday.setUTCHours(22, 0, 0, 0);
  while (nextFriday.getUTCDay() !== 5 || nextFriday.getTime() <= now) nextFriday.setTime(nextFriday.getTime() + DAY);

  const weekly = (seriesTicker: string, coin: string, name: string, start: number, step: number, from: number, to: number, tagsOf: string[]) => {
    let price = start;
    for (let k = from; k <= to; k++) {
      const closeTime = new Date(nextFriday.getTime() + k * 7 * DAY);
      const openTime = new Date(closeTime.getTime() - 7 * DAY + HOUR);
      // The figure walks; strikes sit around where it stood when the event was listed.
      const listedAt = price;
      price = Math.max(step * 4, Math.round((price + (r.next() - 0.48) * step * 3) / (step / 10)) * (step / 10));
      const base = Math.round(listedAt / step) * step;
      const strikes = [base - step, base, base + step];
      out.push({
        series: seriesTicker, ticker: `${seriesTicker}-${code(closeTime)}`, title: `${name} price on ${day(closeTime)} at 5pm ET`,
        description: `<p>Where <strong>${coin}</strong> closes on ${day(closeTime)}, 17:00 ET, by the series' settlement index.</p>`,
        tags: tagsOf, openTime, closeTime, expectedResolutionTime: new Date(closeTime.getTime() + HOUR),
        markets: strikes.map((strike, i) => ({
          ticker: `${seriesTicker}-${code(closeTime)}-T${strike}`,
          title: `${name} above ${usd(strike)} on ${day(closeTime)} at 5pm ET?`,
          rules: `Resolves YES if the ${coin} settlement index is above ${usd(strike)} for the 60 seconds before 17:00 ET on ${day(closeTime)}. Otherwise NO.`,
          yes: price > strike, fair: fairOf((price - strike) / step),
          // The oldest Solana week listed its top strike twice by mistake: that copy was voided.
          voided: seriesTicker === 'KXSOLW' && k === from && i === 2,
        })),
      });
    }
  };
  weekly('KXBTCW', 'BTC', 'Bitcoin', 96_000, 2_500, -5, 1, ['Crypto', 'Bitcoin']);
  weekly('KXSOLW', 'SOL', 'Solana', 180, 10, -2, 1, ['Crypto', 'Solana']);

  // CPI: released mid-month at 08:30 ET for the month before.
  const thisMonth = new Date(now);
  for (let m = -2; m <= 1; m++) {
    const release = new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() + m, 12, 13, 30));
    const closeTime = new Date(release.getTime() - HOUR);
    const openTime = new Date(release.getTime() - 28 * DAY);
    const of = new Date(Date.UTC(release.getUTCFullYear(), release.getUTCMonth() - 1, 1));
    const actual = [0.1, 0.2, 0.3, 0.4][r.int(0, 3)]!;
    out.push({
      series: 'KXCPI', ticker: `KXCPI-${code(release).slice(0, 5)}`, title: `US CPI for ${MONTH_NAMES[of.getUTCMonth()]} ${of.getUTCFullYear()}`,
      description: `<p>The month-over-month change of the seasonally adjusted CPI-U for ${MONTH_NAMES[of.getUTCMonth()]}, as first released by the BLS on ${day(release)}.</p>`,
      tags: ['Economy', 'Interest Rates'], openTime, closeTime, expectedResolutionTime: new Date(release.getTime() + HOUR),
      markets: [0.1, 0.2, 0.3].map((strike) => ({
        ticker: `KXCPI-${code(release).slice(0, 5)}-T${strike.toFixed(1)}`,
        title: `CPI above ${strike.toFixed(1)}% in ${MONTH_NAMES[of.getUTCMonth()]}?`,
        rules: `Resolves YES if the BLS first release shows the seasonally adjusted CPI-U rising more than ${strike.toFixed(1)}% from the month before. Revisions after the first release do not count.`,
        yes: actual > strike + 0.01, fair: fairOf((0.25 - strike) * 10),
      })),
    });
  }

  // New York high temperature: one event per day, trading the day before until the evening.
  const today = new Date(now);
  today.setUTCHours(0, 0, 0, 0);
  for (let d = -2; d <= 2; d++) {
    const date = new Date(today.getTime() + d * DAY);
    const openTime = new Date(date.getTime() - DAY + 14 * HOUR);
    const closeTime = new Date(date.getTime() + 23 * HOUR);
    const high = 44 + r.int(-6, 6);
    out.push({
      series: 'KXHIGHNY', ticker: `KXHIGHNY-${code(date)}`, title: `Highest temperature in NYC on ${day(date)}`,
      description: `<p>The maximum temperature at Central Park on ${day(date)}, per the NWS Daily Climate Report issued the next morning.</p>`,
      tags: ['Weather'], openTime, closeTime, expectedResolutionTime: new Date(closeTime.getTime() + 12 * HOUR),
      markets: [40, 45, 50].map((t, i) => ({
        ticker: `KXHIGHNY-${code(date)}-T${t}`, title: `NYC high above ${t}°F on ${day(date)}?`,
        rules: `Resolves YES if the NWS Daily Climate Report for Central Park shows a maximum temperature above ${t}°F for ${day(date)}.`,
        yes: high > t, fair: fairOf((44 - t) / 4),
        // The report for the oldest day never came out complete: its top bracket was voided.
        voided: d === -2 && i === 2,
      })),
    });
  }

  // One-offs: a space launch (trading, one market halted on news) and next year's Best Picture (a draft).
  const launchOpen = new Date(now - 40 * DAY);
  const launchClose = new Date(now + 36 * DAY);
  out.push({
    series: null, ticker: `KXSTARSHIP-${code(launchClose)}`, title: 'Starship orbital flight this year',
    description: '<p>Whether SpaceX’s Starship completes a full orbit before the close, per SpaceX’s flight summary and the FAA mishap notices.</p>',
    tags: ['Science', 'Technology'], openTime: launchOpen, closeTime: launchClose, expectedResolutionTime: new Date(launchClose.getTime() + 2 * DAY), status: 'open',
    markets: [
      { ticker: `KXSTARSHIP-${code(launchClose)}-ORBIT`, title: 'Starship reaches orbit before the close?', rules: 'Resolves YES if a Starship vehicle completes at least one full orbit of Earth before the close time, per SpaceX’s official flight summary.', yes: false, fair: 38 },
      { ticker: `KXSTARSHIP-${code(launchClose)}-CATCH`, title: 'Super Heavy booster caught on the next flight?', rules: 'Resolves YES if the Super Heavy booster of the next Starship flight is caught by the launch tower arms.', yes: false, fair: 61, halted: true },
    ],
  });
  const oscarOpen = new Date(now + 20 * DAY);
  const oscarClose = new Date(now + 110 * DAY);
  out.push({
    series: null, ticker: `KXOSCARBP-${String(oscarClose.getUTCFullYear()).slice(2)}`, title: `Best Picture at the ${oscarClose.getUTCFullYear()} Academy Awards`,
    description: '<p>The film that wins Best Picture, as announced at the ceremony.</p>', tags: ['Entertainment', 'Awards'],
    openTime: oscarOpen, closeTime: oscarClose, expectedResolutionTime: new Date(oscarClose.getTime() + 6 * HOUR), status: 'draft',
    markets: [
      { ticker: `KXOSCARBP-${String(oscarClose.getUTCFullYear()).slice(2)}-DRAMA`, title: 'A drama wins Best Picture?', rules: 'Resolves YES if the Best Picture winner is listed as a drama by the Academy’s official nominee list.', yes: false, fair: 55 },
      { ticker: `KXOSCARBP-${String(oscarClose.getUTCFullYear()).slice(2)}-INTL`, title: 'A non-English-language film wins Best Picture?', rules: 'Resolves YES if the Best Picture winner’s primary language is not English, per the Academy’s submission data.', yes: false, fair: 12 },
    ],
  });
  return placeInTime(out, now);
}

/**
 * A series event's state from its times: under way → open; past → closed for the latest of its
 * series (its markets await resolution), settled for older ones; upcoming → open (published, markets
 * still draft) for the next of its series, draft for later ones.
 */
function placeInTime(list: EventSeed[], now: number): EventSeed[] {
  return list.map((e) => {
    if (e.status) return e;
    const mine = list.filter((x) => x.series === e.series);
    const close = e.closeTime.getTime();
    const open = e.openTime.getTime();
    let status: EventStatus = 'open';
    if (close <= now) status = mine.some((x) => x.closeTime.getTime() <= now && x.closeTime.getTime() > close) ? 'settled' : 'closed';
    else if (open > now) status = mine.some((x) => x.openTime.getTime() > now && x.openTime.getTime() < open) ? 'draft' : 'open';
    return { ...e, status };
  });
}

export interface SeedMarketsOptions {
  now?: Date;
}

/** Seeds the catalogue once per database. True when something was seeded. */
export async function seedMarkets(db: Db, log: Pick<Logger, 'info'>, opts: SeedMarketsOptions = {}): Promise<boolean> {
  const counts = await db.transaction(async (tx) => {
    const [done] = await tx.select().from(appMeta).where(eq(appMeta.key, META_KEY));
    if (done) return null;
    const [existing] = await tx.select({ n: sql<number>`count(*)::int` }).from(series);
    if (existing!.n > 0) return null;
    const result = await seedInTransaction(tx, (opts.now ?? new Date()).getTime());
    await tx.insert(appMeta).values({ key: META_KEY, value: new Date().toISOString() });
    return result;
  });
  if (!counts) return false;
  log.info(counts, 'demo markets seeded');
  return true;
}

async function seedInTransaction(tx: DbOrTx, now: number) {
  const r = new Random(20_261_128);
  const [sam] = await tx.select().from(admins).where(eq(admins.email, 'sam.markets@pitboss.local'));
  const [root] = await tx.select().from(admins).where(eq(admins.role, 'superadmin')).orderBy(asc(admins.id)).limit(1);
  const who = sam ?? root;
  const actor = { actorKind: 'admin', adminId: who?.id ?? null, adminEmail: who?.email ?? 'system', ip: '81.2.69.142' };
  const audit: (typeof auditLog.$inferInsert)[] = [];

  const story = demoEvents(r, now) as (EventSeed & { status: EventStatus })[];
  // Tags by name, created when the back-office seed did not (a database seeded before them).
  const wanted = [...new Set([...SERIES.flatMap((s) => s.tags), ...story.flatMap((e) => e.tags)])];
  const tagRows = await tx.select({ id: tags.id, name: tags.name }).from(tags).where(inArray(tags.name, wanted));
  for (const name of wanted.filter((n) => !tagRows.some((t) => t.name === n))) {
    const [row] = await tx.insert(tags).values({ name, slug: slugify(name, 'tag') }).onConflictDoNothing().returning({ id: tags.id, name: tags.name });
    if (row) tagRows.push(row);
  }
  const tagId = (name: string) => tagRows.find((t) => t.name === name)?.id;

  const seriesIds = new Map<string, number>();
  for (const [i, s] of SERIES.entries()) {
    const createdAt = new Date(now - (120 - i * 6) * DAY);
    const [row] = await tx
      .insert(series)
      .values({ ticker: s.ticker, title: s.title, frequency: s.frequency, category: s.category, settlementSource: s.settlementSource, settlementUrl: s.settlementUrl, status: s.status ?? 'active',
        defaultMaxPosition: s.limits?.maxPosition ?? null, defaultMaxOrderSize: s.limits?.maxOrderSize ?? null, createdAt, updatedAt: createdAt })
      .returning({ id: series.id });
    seriesIds.set(s.ticker, row!.id);
    const links = s.tags.map(tagId).filter((id): id is number => id !== undefined);
    if (links.length) await tx.insert(seriesTags).values(links.map((t) => ({ seriesId: row!.id, tagId: t })));
    audit.push({ ...actor, action: 'create', resource: 'series', recordId: String(row!.id), after: { ticker: s.ticker, title: s.title, frequency: s.frequency, tags: s.tags }, createdAt });
  }

  const tally = { series: SERIES.length, events: 0, markets: 0 } as Record<string, number>;
  const plan: SettlePlanItem[] = [];
  for (const e of story) {
    const createdAt = new Date(Math.min(e.openTime.getTime() - 2 * DAY, now - HOUR));
    const [row] = await tx
      .insert(events)
      .values({
        seriesId: e.series ? seriesIds.get(e.series)! : null, ticker: e.ticker, title: e.title, description: e.description,
        openTime: e.openTime, closeTime: e.closeTime, expectedResolutionTime: e.expectedResolutionTime, status: e.status, createdAt,
        updatedAt: new Date(Math.min(now, Math.max(createdAt.getTime(), e.status === 'draft' ? createdAt.getTime() : e.status === 'open' ? e.openTime.getTime() : e.closeTime.getTime()))),
      })
      .returning({ id: events.id });
    const eventId = row!.id;
    const limits = SERIES.find((s) => s.ticker === e.series)?.limits;
    tally.events!++;
    const links = e.tags.map(tagId).filter((id): id is number => id !== undefined);
    if (links.length) await tx.insert(eventTags).values(links.map((t) => ({ eventId, tagId: t })));
    audit.push({ ...actor, action: 'create', resource: 'events', recordId: String(eventId), after: { ticker: e.ticker, title: e.title, status: 'draft', tags: e.tags }, createdAt });
    if (e.status !== 'draft') {
      audit.push({ ...actor, action: 'open', resource: 'events', recordId: String(eventId), before: { status: 'draft' }, after: { status: 'open' }, createdAt: new Date(Math.min(now, createdAt.getTime() + DAY)) });
    }
    if (e.status === 'closed' || e.status === 'settled') {
      audit.push({ ...actor, action: 'close', resource: 'events', recordId: String(eventId), before: { status: 'open' }, after: { status: 'closed' }, createdAt: e.closeTime });
    }
    if (e.status === 'settled') {
      audit.push({ ...actor, action: 'settle', resource: 'events', recordId: String(eventId), before: { status: 'closed' }, after: { status: 'settled' }, createdAt: new Date(Math.min(now, e.expectedResolutionTime.getTime() + 3 * HOUR)) });
    }

    for (const m of e.markets) {
      const closesAt = m.closesAt ?? e.closeTime;
      let status: MarketStatus = 'draft';
      if (e.status === 'open' && e.openTime.getTime() <= now) status = m.halted ? 'halted' : 'open';
      if (e.status === 'closed') status = 'closed';
      if (e.status === 'settled') status = m.voided ? 'voided' : 'resolved';
      const traded = status !== 'draft';
      // Opened within 90 minutes of its event's opening, and never later than now (tomorrow's weather
      // event opens at 14:00 UTC today: seeded at 14:05, its markets opened at most 5 minutes ago).
      const openedAt = traded ? new Date(Math.min(now, e.openTime.getTime() + r.int(1, 90) * 60_000)) : null;
      const closedAt = status === 'closed' || status === 'resolved' || status === 'voided' ? closesAt : null;
      const resolvedAt = status === 'resolved' || status === 'voided' ? new Date(Math.min(now, e.expectedResolutionTime.getTime() + r.int(5, 120) * 60_000)) : null;
      const result: MarketResult | null = status === 'voided' ? 'VOID' : status === 'resolved' ? (m.yes ? 'YES' : 'NO') : null;
      // Past markets go in open: seedTrading trades, closes and resolves them through the services.
      const past = closedAt !== null;
      const [mrow] = await tx
        .insert(markets)
        .values({
          eventId, ticker: m.ticker, title: m.title, rules: m.rules, maxPosition: limits?.maxPosition ?? null, maxOrderSize: limits?.maxOrderSize ?? null, status: past ? 'open' : status, lastPrice: null, volume: 0, openInterest: 0, result: null, closesAt, openedAt,
          ...(status === 'halted' ? HALT : {}), closedAt: null, resolvedAt: null, createdAt: new Date(createdAt.getTime() + HOUR), updatedAt: openedAt ?? new Date(createdAt.getTime() + HOUR),
        })
        .returning({ id: markets.id });
      tally.markets!++;
      tally[status] = (tally[status] ?? 0) + 1;
      const id = String(mrow!.id);
      audit.push({ ...actor, action: 'create', resource: 'markets', recordId: id, after: { ticker: m.ticker, eventId, status: 'draft', closesAt }, createdAt: new Date(createdAt.getTime() + HOUR) });
      if (openedAt) audit.push({ ...actor, action: 'open', resource: 'markets', recordId: id, before: { status: 'draft' }, after: { status: 'open' }, createdAt: openedAt });
      if (status === 'halted') audit.push({ ...actor, action: 'halt', resource: 'markets', recordId: id, before: { status: 'open' }, after: { status: 'halted', ...HALT }, createdAt: new Date(Math.max(openedAt!.getTime(), now - 3 * HOUR)) });
      if (past) {
        const source = SERIES.find((x) => x.ticker === e.series)?.settlementSource ?? 'The organiser’s official announcement';
        const evidence =
          result === 'VOID'
            ? `Voided: the market was listed in error (a duplicate strike of ${e.ticker}); every holder is refunded their cost.`
            : `${source}: the published figure ${m.yes ? 'met' : 'did not meet'} the market’s condition (${m.title.replace(/\?$/, '')}), so it resolves ${result}.`;
        // The series' source page as the link (a one-off event's organiser page otherwise); none for a void.
        const link = SERIES.find((x) => x.ticker === e.series)?.settlementUrl ?? `https://events.example.org/${e.ticker.toLowerCase()}/results`;
        const evidenceUrls = result === 'VOID' ? [] : [link];
        plan.push({ marketId: mrow!.id, closedAt: closedAt.toISOString(), ...(result && resolvedAt ? { resolve: { result, source, evidence, evidenceUrls, at: resolvedAt.toISOString() } } : {}) });
      }
    }
  }
  audit.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  if (audit.length) await tx.insert(auditLog).values(audit);
  if (plan.length) await tx.insert(appMeta).values({ key: SETTLE_PLAN_KEY, value: JSON.stringify(plan) });
  return tally;
}
