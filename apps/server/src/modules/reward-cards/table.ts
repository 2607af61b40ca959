import type { RewardCondition, RewardKind } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, money, ref, updatedAt } from '../../db/columns.js';
import { cardCharacters } from '../cards/table.js';
import { coins } from '../coins/table.js';
import { users } from '../users/table.js';

/** A reward granted once per user to those who meet its condition, while its supply lasts (docs/cards-and-packs.md, "Reward cards"). */
export const rewardCards = pgTable(
  'reward_cards',
  {
    id: id(),
    name: text('name').notNull(),
    imageUrl: text('image_url').notNull().default(''),
    description: text('description').notNull().default(''),
    condition: text('condition').notNull().$type<RewardCondition>(),
    /** Shares traded, packs opened, or minor units deposited. */
    threshold: money('threshold').notNull(),
    periodDays: integer('period_days'),
    conditionCoinId: ref('condition_coin_id').references(() => coins.id),
    rewardKind: text('reward_kind').notNull().$type<RewardKind>(),
    rewardCoinId: ref('reward_coin_id').references(() => coins.id),
    rewardAmount: money('reward_amount'),
    rewardCharacterId: ref('reward_character_id').references(() => cardCharacters.id, { onDelete: 'restrict' }),
    supply: integer('supply').notNull(),
    granted: integer('granted').notNull().default(0),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('reward_cards_name_uq').on(sql`lower(${t.name})`),
    check('reward_cards_status_ck', sql`${t.status} in ('active','inactive')`),
    check('reward_cards_supply_ck', sql`${t.supply} > 0 and ${t.granted} >= 0 and ${t.granted} <= ${t.supply} and ${t.threshold} > 0`),
    check('reward_cards_condition_ck', sql`(${t.condition} = 'trading_volume' and ${t.periodDays} > 0 and ${t.conditionCoinId} is null)
      or (${t.condition} = 'packs_opened' and ${t.periodDays} is null and ${t.conditionCoinId} is null)
      or (${t.condition} = 'total_deposits' and ${t.periodDays} is null and ${t.conditionCoinId} is not null)`),
    check('reward_cards_reward_ck', sql`(${t.rewardKind} = 'coin' and ${t.rewardCoinId} is not null and ${t.rewardAmount} > 0 and ${t.rewardCharacterId} is null)
      or (${t.rewardKind} = 'card' and ${t.rewardCharacterId} is not null and ${t.rewardCoinId} is null and ${t.rewardAmount} is null)`),
  ],
);
export type RewardCardRow = typeof rewardCards.$inferSelect;

/** One reward given to one user: at most once (unique), with its ledger transaction or minted card. */
export const rewardGrants = pgTable(
  'reward_grants',
  {
    id: id(),
    rewardCardId: ref('reward_card_id').notNull().references(() => rewardCards.id),
    userId: ref('user_id').notNull().references(() => users.id),
    amount: money('amount'),
    coinId: ref('coin_id').references(() => coins.id),
    userCardId: ref('user_card_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reward_grants_card_user_uq').on(t.rewardCardId, t.userId),
    index('reward_grants_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('reward_grants_created_idx').on(t.createdAt, t.id),
  ],
);
export type RewardGrantRow = typeof rewardGrants.$inferSelect;
