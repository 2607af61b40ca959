import { ERROR_CODES, marketsResource } from '@pitboss/contract';
import { and, eq, getTableColumns } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { admins } from '../sub-admins/table.js';
import { resolutionProposals } from '../resolutions/table.js';
import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import { iso, defineResource, isoOrNull, type ApiRecord } from '../../resources/define.js';
import { events } from '../events/table.js';
import { series } from '../series/table.js';
import { closeMarket, haltMarket, openMarket, prepareMarketCreate, prepareMarketUpdate, resumeMarket } from './service.js';
import { resolveMarket, type Settlement } from '../resolutions/service.js';
import { confirmResolution, proposeResolution, rejectResolution, resolutionPolicy } from '../resolutions/proposals.js';
import { bestQuotesOf } from '../market-overview/service.js';
import { markets } from './table.js';
import { liabilityFields, liabilityOf, type MarketLiability } from './liability.js';
import { reasonOf } from '../ledger/input.js';

const proposer = alias(admins, 'proposer');

/** "45 min", "5 h", "3 days": how far ahead a moment is, as an operator says it. */
export function howLong(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}

/**
 * Closing or resolving before the market's close time needs `confirm: true`: without it, 409
 * CONFIRM_REQUIRED saying how early (the dialog shows it and asks again). Nothing has changed then.
 */
function assertNotEarly(record: ApiRecord, input: Readonly<Record<string, unknown>>, verb: 'close' | 'resolve', now = Date.now()): void {
  if (input.confirm === true) return;
  const closesAt = Date.parse(String(record.closesAt));
  if (!(closesAt > now)) return;
  const early = howLong(closesAt - now);
  const when = `${new Date(closesAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const doing = verb === 'close' ? 'Closing it now ends trading' : 'Resolving it now settles it';
  throw new AppError(409, ERROR_CODES.CONFIRM_REQUIRED, `${record.ticker} is scheduled to close at ${when}, in ${early}. ${doing} ${early} early: confirm to ${verb} it anyway.`);
}

/** What the admin is told once a market settled. */
function settledMessage(ticker: string, { resolution, market, paidText: paid }: Settlement): string {
  const holders = `${resolution.holders} holder${resolution.holders === 1 ? '' : 's'}`;
  return market.status === 'voided' ? `Market ${ticker} voided: ${paid} refunded to ${holders}` : `Market ${ticker} resolved ${resolution.result}: ${paid} paid to ${holders}`;
}

export const marketsDef = defineResource({
  spec: marketsResource,
  table: markets,
  idColumn: markets.id,
  columns: {
    ticker: markets.ticker, title: markets.title, status: markets.status, lastPrice: markets.lastPrice, volume: markets.volume,
    openInterest: markets.openInterest, closesAt: markets.closesAt, createdAt: markets.createdAt, eventId: markets.eventId, result: markets.result, haltReasonCode: markets.haltReasonCode,
    closedAt: markets.closedAt, resolvedAt: markets.resolvedAt, maxPosition: markets.maxPosition, maxOrderSize: markets.maxOrderSize,
  },
  nullable: ['lastPrice', 'closedAt', 'resolvedAt', 'maxPosition', 'maxOrderSize'],
  searchColumns: [markets.ticker, markets.title],
  // The book's best prices, from its live orders, for a page (or export batch) at once.
  batchFields: {
    quotes: bestQuotesOf,
    liability: liabilityOf,
  },
  select: (db: DbOrTx) =>
    db
      .select({
        ...getTableColumns(markets), eventTicker: events.ticker, eventName: events.title, settlementSource: series.settlementSource,
        proposedResult: resolutionProposals.result, proposedByEmail: proposer.email, disputeEndsAt: resolutionProposals.disputeEndsAt,
      })
      .from(markets)
      .innerJoin(events, eq(events.id, markets.eventId))
      // By primary key: still one row per market (an event without a series has no source).
      .leftJoin(series, eq(series.id, events.seriesId))
      // At most one open proposal per market (a unique index), its proposer by primary key.
      .leftJoin(resolutionProposals, and(eq(resolutionProposals.marketId, markets.id), eq(resolutionProposals.status, 'open')))
      .leftJoin(proposer, eq(proposer.id, resolutionProposals.proposedBy)),
  toRecord: (r) => ({
    _id: String(r.id), ticker: String(r.ticker), title: String(r.title), rules: String(r.rules), eventId: String(r.eventId),
    eventTicker: String(r.eventTicker), eventName: String(r.eventName), settlementSource: (r.settlementSource as string | null) ?? null, status: r.status as 'draft',
    bestBid: (r.quotes as { bid: number | null } | null)?.bid ?? null, bestAsk: (r.quotes as { ask: number | null } | null)?.ask ?? null,
    lastPrice: r.lastPrice === null || r.lastPrice === undefined ? null : Number(r.lastPrice), volume: Number(r.volume ?? 0), openInterest: Number(r.openInterest ?? 0),
    result: (r.result as 'YES' | null) ?? null, haltReasonCode: (r.haltReasonCode as string | null) ?? null, haltReason: (r.haltReason as string | null) ?? null,
    ...liabilityFields(r.liability as MarketLiability | undefined, Number(r.openInterest ?? 0)),
    proposalPending: r.proposedResult !== null && r.proposedResult !== undefined, proposedResult: (r.proposedResult as 'YES' | null) ?? null,
    proposedByEmail: (r.proposedByEmail as string | null) ?? null, disputeEndsAt: isoOrNull(r.disputeEndsAt),
    maxPosition: (r.maxPosition as number | null) ?? null, maxOrderSize: (r.maxOrderSize as number | null) ?? null, closesAt: isoOrNull(r.closesAt)!, openedAt: isoOrNull(r.openedAt), closedAt: isoOrNull(r.closedAt),
    resolvedAt: isoOrNull(r.resolvedAt), createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  prepareCreate: prepareMarketCreate,
  prepareUpdate: prepareMarketUpdate,
  uniqueErrors: { markets_ticker_uq: { field: 'ticker', message: 'A market with this ticker exists' } },
  // The market service audits each move (closing an event closes its markets through it too).
  auditedByHandlers: true,
  actions: {
    open: async (tx, actor, record) => {
      await openMarket(tx, actor, Number(record._id));
      return `Market ${record.ticker} is open for trading`;
    },
    halt: async (tx, actor, record, input) => {
      await haltMarket(tx, actor, Number(record._id), reasonOf(input));
      return `Market ${record.ticker} halted`;
    },
    resume: async (tx, actor, record) => {
      await resumeMarket(tx, actor, Number(record._id));
      return `Market ${record.ticker} resumed`;
    },
    close: async (tx, actor, record, input) => {
      assertNotEarly(record, input, 'close');
      await closeMarket(tx, actor, Number(record._id));
      return `Market ${record.ticker} closed`;
    },
    resolve: async (tx, actor, record, input) => {
      assertNotEarly(record, input, 'resolve');
      const policy = await resolutionPolicy(tx);
      if (policy.twoAdmins) {
        const p = await proposeResolution(tx, actor, Number(record._id), input, policy.disputeHours);
        return `Resolution of ${record.ticker} as ${p.result} proposed: another admin holding Resolve confirms it ${policy.disputeHours ? `from ${p.disputeEndsAt.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'now'}, or rejects it`;
      }
      return settledMessage(String(record.ticker), await resolveMarket(tx, actor, Number(record._id), input));
    },
    confirm: async (tx, actor, record) => settledMessage(String(record.ticker), await confirmResolution(tx, actor, Number(record._id))),
    reject: async (tx, actor, record, input) => {
      const p = await rejectResolution(tx, actor, Number(record._id), reasonOf(input));
      return `Proposed resolution of ${record.ticker} (${p.result}) rejected: nothing was paid, the market stays closed`;
    },
  },
});
