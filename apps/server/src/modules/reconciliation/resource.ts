import { formatUnits, reconciliationsResource, type ReconciliationRecord } from '@pitboss/contract';
import { eq, getTableColumns } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, isoOrNull, type ApiRecord, } from '../../resources/define.js';
import { loadRecord } from '../../resources/register.js';
import { coins } from '../coins/table.js';
import { admins } from '../sub-admins/table.js';
import { reconcileNow } from './service.js';
import { reconciliations } from './table.js';

/** A check's figures as the API writes them: minor units as strings, and the same in the coin's units. */
export function checkTexts(r: { decimals: number; symbol: string }, v: Record<'custody' | 'ledgerCustody' | 'recordsNet' | 'inFlight' | 'difference' | 'unexplained' | 'ledgerVsRecords' | 'usersAvailable' | 'usersHeld' | 'house' | 'fees' | 'collateral', bigint | null>) {
  const text = (x: bigint | null) => (x === null ? null : `${formatUnits(x, r.decimals)} ${r.symbol}`);
  const must = (x: bigint | null) => text(x ?? 0n)!;
  return {
    custody: v.custody?.toString() ?? null, custodyText: text(v.custody),
    ledgerCustody: (v.ledgerCustody ?? 0n).toString(), ledgerCustodyText: must(v.ledgerCustody),
    recordsNet: (v.recordsNet ?? 0n).toString(), recordsNetText: must(v.recordsNet),
    inFlight: (v.inFlight ?? 0n).toString(), inFlightText: must(v.inFlight),
    difference: v.difference?.toString() ?? null, differenceText: text(v.difference),
    unexplained: v.unexplained?.toString() ?? null, unexplainedText: text(v.unexplained),
    ledgerVsRecords: (v.ledgerVsRecords ?? 0n).toString(), ledgerVsRecordsText: must(v.ledgerVsRecords),
    usersAvailableText: must(v.usersAvailable), usersHeldText: must(v.usersHeld), houseText: must(v.house), feesText: must(v.fees), collateralText: must(v.collateral),
  };
}

/** Stored checks (Reconciliation): by custody report, by day, and on demand. docs/money-controls.md. */
export const reconciliationsDef = defineResource({
  spec: reconciliationsResource,
  table: reconciliations,
  idColumn: reconciliations.id,
  columns: { asOf: reconciliations.asOf, createdAt: reconciliations.createdAt, status: reconciliations.status, trigger: reconciliations.trigger, coin: coins.symbol },
  // The coin and the admin by primary key: one row per check.
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(reconciliations), symbol: coins.symbol, decimals: coins.decimals, byEmail: admins.email })
      .from(reconciliations)
      .innerJoin(coins, eq(coins.id, reconciliations.coinId))
      .leftJoin(admins, eq(admins.id, reconciliations.adminId)),
  toRecord: (r): ReconciliationRecord => {
    const symbol = String(r.symbol);
    const status = r.status as ReconciliationRecord['status'];
    const asOf = isoOrNull(r.asOf)!;
    const b = (k: keyof typeof r) => (r[k] === null || r[k] === undefined ? null : BigInt(String(r[k])));
    return {
      _id: String(r.id), title: `${symbol} at ${asOf.slice(0, 16).replace('T', ' ')} UTC: ${status.replace('_', ' ')}`,
      coinId: String(r.coinId), coin: symbol, decimals: Number(r.decimals), status, trigger: r.trigger as ReconciliationRecord['trigger'], asOf,
      ...checkTexts({ decimals: Number(r.decimals), symbol }, {
        custody: b('custody'), ledgerCustody: b('ledgerCustody'), recordsNet: b('recordsNet'), inFlight: b('inFlight'), difference: b('difference'), unexplained: b('unexplained'),
        ledgerVsRecords: b('ledgerVsRecords'), usersAvailable: b('usersAvailable'), usersHeld: b('usersHeld'), house: b('house'), fees: b('fees'), collateral: b('collateral'),
      }),
      explanation: String(r.explanation ?? ''), byEmail: r.byEmail === null || r.byEmail === undefined ? null : String(r.byEmail), createdAt: iso(r.createdAt),
    };
  },
  // The service computes and stores the check and writes its audit entry.
  create: async (input, w): Promise<ApiRecord> => {
    const row = await reconcileNow(w.tx, w.actor, Number(input.coinId));
    return (await loadRecord(reconciliationsDef, w.tx, row.id)).record;
  },
  createdMessage: (r) => {
    const c = r as ReconciliationRecord;
    const said = { matched: 'matched', explained: `an explained difference of ${c.differenceText}`, mismatch: `a mismatch: ${c.unexplainedText ?? c.ledgerVsRecordsText} unexplained`, no_report: 'no custody report to compare; ledger and records agree' }[c.status];
    return `${c.coin} reconciled: ${said}`;
  },
  auditedByHandlers: true,
});
