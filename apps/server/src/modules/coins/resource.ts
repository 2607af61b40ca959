import { coinsResource } from '@pitboss/contract';
import { iso, defineResource, type ApiRecord, } from '../../resources/define.js';
import { loadRecord } from '../../resources/register.js';
import { unitsText } from '../ledger/format.js';
import { updateCoin, type CoinPatch } from './service.js';
import { coins } from './table.js';

const COIN_AMOUNTS = ['minWithdrawal', 'withdrawalFee', 'autoApproveLimit', 'dailyWithdrawalLimit', 'largeDepositThreshold', 'secondApprovalThreshold', 'adjustmentApprovalThreshold'] as const;

export const coinsDef = defineResource({
  spec: coinsResource,
  table: coins,
  idColumn: coins.id,
  columns: { symbol: coins.symbol, name: coins.name, status: coins.status },
  searchColumns: [coins.symbol, coins.name],
  toRecord: (r) => ({
    _id: String(r.id), symbol: r.symbol, name: r.name, network: r.network, mintAddress: r.mintAddress ?? null, decimals: r.decimals, displayDecimals: r.displayDecimals, logoUrl: r.logoUrl,
    depositEnabled: r.depositEnabled, withdrawEnabled: r.withdrawEnabled, minWithdrawal: String(r.minWithdrawal), withdrawalFee: String(r.withdrawalFee),
    minWithdrawalText: unitsText(r.minWithdrawal as bigint, Number(r.decimals), String(r.symbol))!, withdrawalFeeText: unitsText(r.withdrawalFee as bigint, Number(r.decimals), String(r.symbol))!,
    autoApproveLimit: String(r.autoApproveLimit), autoApproveLimitText: unitsText(r.autoApproveLimit as bigint, Number(r.decimals), String(r.symbol))!,
    dailyWithdrawalLimit: r.dailyWithdrawalLimit === null ? null : String(r.dailyWithdrawalLimit), dailyWithdrawalLimitText: unitsText(r.dailyWithdrawalLimit as bigint | null, Number(r.decimals), String(r.symbol)),
    largeDepositThreshold: r.largeDepositThreshold === null ? null : String(r.largeDepositThreshold), largeDepositThresholdText: unitsText(r.largeDepositThreshold as bigint | null, Number(r.decimals), String(r.symbol)),
    secondApprovalThreshold: r.secondApprovalThreshold === null ? null : String(r.secondApprovalThreshold), secondApprovalThresholdText: unitsText(r.secondApprovalThreshold as bigint | null, Number(r.decimals), String(r.symbol)),
    adjustmentApprovalThreshold: r.adjustmentApprovalThreshold === null ? null : String(r.adjustmentApprovalThreshold), adjustmentApprovalThresholdText: unitsText(r.adjustmentApprovalThreshold as bigint | null, Number(r.decimals), String(r.symbol)),
    status: r.status, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  // The coin service holds the rules (and the audit entry); amounts arrive as digit strings.
  update: async (id, input, w): Promise<ApiRecord> => {
    const patch: CoinPatch = { ...(input as CoinPatch) };
    // Each amount given: its digits as a bigint, or null (none) for the limits that may be empty.
    for (const key of COIN_AMOUNTS) if (key in input) (patch as Record<string, bigint | null>)[key] = typeof input[key] === 'string' ? BigInt(input[key]) : null;
    await updateCoin(w.tx, w.actor, id, patch);
    return (await loadRecord(coinsDef, w.tx, id)).record;
  },
  statusColumn: coins.status,
});
