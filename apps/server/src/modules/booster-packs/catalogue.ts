import type { UserCardSource } from '@pitboss/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import type { Actor } from '../../context.js';
import { grantCard } from '../cards/service.js';
import { cardCharacters, cardTiers } from '../cards/table.js';
import type { FieldErrors } from '../ledger/input.js';
import type { StoredOdds } from './table.js';

/**
 * What the packs read of the card catalogue (tiers and characters, the cards module's tables).
 * Tiers are ranked by their order (`sort_order`, then id): the first is the most common, the last
 * the rarest; odds are stored and drawn in that order.
 */

/** Every tier's name by id. */
export async function tierNamesOf(db: DbOrTx): Promise<Map<string, string>> {
  const rows = await queryRows<{ id: string | number; name: string }>(db, sql`select id, name from card_tiers`);
  return new Map(rows.map((r) => [String(r.id), r.name]));
}

/**
 * Odds checked against the catalogue: every tier exists (an inactive one may keep 0 %, not more),
 * and they come back in the tiers' order. The sum was checked by the schema.
 */
export async function checkTierOdds(db: DbOrTx, odds: StoredOdds, errors: FieldErrors, field: string): Promise<StoredOdds> {
  const ids = odds.map((o) => Number(o.tierId));
  const rows = ids.length
    ? await queryRows<{ id: string | number; name: string; status: string }>(db, sql`
        select id, name, status from card_tiers where id = any(${`{${ids.join(',')}}`}::bigint[]) order by sort_order, id`)
    : [];
  const known = new Map(rows.map((r, rank) => [String(r.id), { ...r, rank }]));
  for (const o of odds) {
    const tier = known.get(o.tierId);
    if (!tier) errors.add(field, `No tier #${o.tierId}`);
    else if (tier.status !== 'active' && o.bps > 0) errors.add(field, `${tier.name} is inactive: give it 0 %`);
  }
  return [...odds].sort((a, b) => (known.get(a.tierId)?.rank ?? 0) - (known.get(b.tierId)?.rank ?? 0));
}

/** The characters that can still be minted, of these tiers: active, below their max supply (`remaining` capped at `cap`). */
export async function poolOf(db: DbOrTx, tierIds: string[], cap: number): Promise<{ characterId: string; tierId: string; remaining: number }[]> {
  if (tierIds.length === 0) return [];
  const rows = await queryRows<{ id: string | number; tier_id: string | number; remaining: string | number }>(db, sql`
    select id, tier_id, least(max_supply - minted_count, ${cap}) as remaining from card_characters
    where status = 'active' and minted_count < max_supply and tier_id = any(${`{${tierIds.join(',')}}`}::bigint[])
    order by id`);
  return rows.map((r) => ({ characterId: String(r.id), tierId: String(r.tier_id), remaining: Number(r.remaining) }));
}

/**
 * Mints one card per character id to the user, in order, through the cards module's `grantCard` (its
 * conditional UPDATE never passes a max supply: a 409 then, and the caller's transaction rolls back).
 * Returns each owned card's id with the character's name and tier at the time.
 */
export async function mintCards(
  db: DbOrTx,
  _actor: Actor,
  input: { userId: number; characterIds: string[]; source: UserCardSource; sourceId: number },
): Promise<{ userCardId: string; character: string; tier: string }[]> {
  const ids = [...new Set(input.characterIds.map(Number))];
  const names = ids.length
    ? await db.select({ id: cardCharacters.id, name: cardCharacters.name, tier: cardTiers.name }).from(cardCharacters).innerJoin(cardTiers, eq(cardTiers.id, cardCharacters.tierId)).where(inArray(cardCharacters.id, ids))
    : [];
  const byId = new Map(names.map((n) => [n.id, n]));
  const out: { userCardId: string; character: string; tier: string }[] = [];
  for (const characterId of input.characterIds) {
    const { userCardId } = await grantCard(db, { userId: input.userId, characterId: Number(characterId), source: input.source, sourceId: input.sourceId });
    const n = byId.get(Number(characterId));
    out.push({ userCardId: String(userCardId), character: n?.name ?? `#${characterId}`, tier: n?.tier ?? '' });
  }
  return out;
}

/**
 * The odds an opening draws with: every tier of the catalogue in the tiers' order, those the odds do
 * not name at 0 % (never rolled, but a tier whose characters are all minted out falls to the nearest
 * tier that has one, so the whole catalogue is the fallback).
 */
export async function fullOdds(db: DbOrTx, odds: StoredOdds): Promise<StoredOdds> {
  const rows = await queryRows<{ id: string | number }>(db, sql`select id from card_tiers order by sort_order, id`);
  const bps = new Map(odds.map((o) => [o.tierId, o.bps]));
  return rows.map((r) => ({ tierId: String(r.id), bps: bps.get(String(r.id)) ?? 0 }));
}
