import { rewardCardsResource, rewardGrantsResource } from '@pitboss/contract';
import { eq, getTableColumns } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { conflict } from '../../http/errors.js';
import { iso, defineResource, } from '../../resources/define.js';
import { users } from '../users/table.js';
import { amountText, prepareRewardCreate, prepareRewardUpdate, rewardTexts } from './service.js';
import { rewardCards, rewardGrants } from './table.js';

type Coins = Map<number, { symbol: string; decimals: number }>;
const coinsOnce = async (db: DbOrTx, ids: number[]) => {
  const all = await rewardTexts(db);
  return new Map(ids.map((id) => [id, all]));
};

const conditionText = (r: Record<string, unknown>, c: Coins) => {
  const t = BigInt(String(r.threshold));
  if (r.condition === 'trading_volume') return `${t.toLocaleString('en')} shares traded in ${r.periodDays} days`;
  if (r.condition === 'packs_opened') return `${t.toLocaleString('en')} packs opened`;
  return `${amountText(t, c.get(Number(r.conditionCoinId)))} deposited`;
};
const rewardText = (r: Record<string, unknown>, c: Coins) =>
  r.rewardKind === 'coin' ? amountText(BigInt(String(r.rewardAmount)), c.get(Number(r.rewardCoinId))) : `A card of character #${r.rewardCharacterId}`;
const idOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));

export const rewardCardsDef = defineResource({
  spec: rewardCardsResource,
  table: rewardCards,
  idColumn: rewardCards.id,
  columns: {
    name: rewardCards.name, supply: rewardCards.supply, granted: rewardCards.granted, status: rewardCards.status, condition: rewardCards.condition,
    rewardKind: rewardCards.rewardKind, createdAt: rewardCards.createdAt,
  },
  searchColumns: [rewardCards.name],
  statusColumn: rewardCards.status,
  batchFields: { coins: coinsOnce },
  toRecord: (r) => {
    const c = (r.coins as Coins | null) ?? new Map();
    return {
      _id: String(r.id), name: String(r.name), imageUrl: String(r.imageUrl), description: String(r.description), condition: r.condition as 'packs_opened',
      threshold: String(r.threshold), periodDays: r.periodDays === null ? null : Number(r.periodDays), conditionCoinId: idOrNull(r.conditionCoinId),
      conditionText: conditionText(r, c), rewardKind: r.rewardKind as 'coin', rewardCoinId: idOrNull(r.rewardCoinId), rewardAmount: idOrNull(r.rewardAmount),
      rewardCharacterId: idOrNull(r.rewardCharacterId), rewardText: rewardText(r, c), supply: Number(r.supply), granted: Number(r.granted),
      status: r.status as 'active', createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
    };
  },
  prepareCreate: prepareRewardCreate,
  prepareUpdate: prepareRewardUpdate,
  uniqueErrors: { reward_cards_name_uq: { field: 'name', message: 'A reward card with this name exists' } },
  beforeDelete: async (records) => {
    for (const r of records) if (Number(r.granted) > 0) throw conflict(`${r.name} was granted to ${r.granted} users: set it inactive instead`);
  },
});

export const rewardGrantsDef = defineResource({
  spec: rewardGrantsResource,
  table: rewardGrants,
  idColumn: rewardGrants.id,
  columns: { createdAt: rewardGrants.createdAt, rewardCardId: rewardGrants.rewardCardId, userId: rewardGrants.userId },
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(rewardGrants), rewardCard: rewardCards.name, username: users.username, rewardKind: rewardCards.rewardKind, rewardCharacterId: rewardCards.rewardCharacterId })
      .from(rewardGrants)
      .innerJoin(rewardCards, eq(rewardCards.id, rewardGrants.rewardCardId))
      .innerJoin(users, eq(users.id, rewardGrants.userId)),
  batchFields: { coins: coinsOnce },
  toRecord: (r) => {
    const c = (r.coins as Coins | null) ?? new Map();
    return {
      _id: String(r.id), rewardCardId: String(r.rewardCardId), rewardCard: String(r.rewardCard), userId: String(r.userId), username: String(r.username),
      rewardText: r.rewardKind === 'coin' ? amountText(r.amount as bigint, c.get(Number(r.coinId))) : `A card of character #${r.rewardCharacterId}`,
      amount: r.amount === null ? null : String(r.amount), userCardId: idOrNull(r.userCardId), createdAt: iso(r.createdAt),
    };
  },
});
