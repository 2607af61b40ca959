import type { UserCardSource } from '@pitboss/contract';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { badRequest, conflict } from '../../http/errors.js';
import type { ApiRecord, Row } from '../../resources/define.js';
import { cardCharacters, userCards } from './table.js';

/**
 * Mints one card of a character: adds one to its `minted_count` only while it is below
 * `max_supply` and the character is active, in one statement (`UPDATE … WHERE minted_count <
 * max_supply RETURNING`), so concurrent draws can never mint past the supply: the row lock makes
 * the second of two racing mints see the first one's count. Returns the new count, or null when
 * the character is sold out, inactive or missing (the caller draws another or refuses).
 * Call it inside the transaction that also records what the card is for.
 */
export async function mintCharacter(tx: DbOrTx, characterId: number): Promise<{ mintedCount: number; maxSupply: number } | null> {
  const [row] = await tx
    .update(cardCharacters)
    .set({ mintedCount: sql`${cardCharacters.mintedCount} + 1` })
    .where(and(eq(cardCharacters.id, characterId), eq(cardCharacters.status, 'active'), lt(cardCharacters.mintedCount, cardCharacters.maxSupply)))
    .returning({ mintedCount: cardCharacters.mintedCount, maxSupply: cardCharacters.maxSupply });
  return row ?? null;
}

export interface GrantCardInput {
  userId: number;
  characterId: number;
  source: UserCardSource;
  /** What produced the card (the opening's, the reward grant's, the redemption's id). */
  sourceId?: string | number | null;
}

/**
 * Gives a user one newly minted card: `mintCharacter` then the `user_cards` row, in the caller's
 * transaction. Refuses with 409 when the character is sold out or inactive (nothing is written).
 * Returns the owned card's id.
 */
export async function grantCard(tx: DbOrTx, input: GrantCardInput): Promise<{ userCardId: number; mintedCount: number }> {
  const minted = await mintCharacter(tx, input.characterId);
  if (!minted) throw conflict('This character cannot be minted: it is sold out (max supply reached), inactive or gone');
  const [row] = await tx
    .insert(userCards)
    .values({ userId: input.userId, characterId: input.characterId, source: input.source, sourceId: input.sourceId === undefined || input.sourceId === null ? null : String(input.sourceId) })
    .returning({ id: userCards.id });
  return { userCardId: row!.id, mintedCount: minted.mintedCount };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A tier or category in use by characters is not deleted: it is deactivated instead. */
export async function assertNotInUse(tx: DbOrTx, what: 'tier' | 'category', records: ApiRecord[]): Promise<void> {
  const ids = records.map((r) => Number(r._id));
  const column = what === 'tier' ? cardCharacters.tierId : cardCharacters.categoryId;
  const used = await tx
    .select({ id: column, n: sql<number>`count(*)::int` })
    .from(cardCharacters)
    .where(inArray(column, ids))
    .groupBy(column);
  if (!used.length) return;
  const total = used.reduce((sum, u) => sum + Number(u.n), 0);
  const first = records.find((r) => Number(r._id) === Number(used[0]!.id));
  const label = records.length === 1 ? `The ${what} "${String(first?.name ?? '')}"` : `${plural(used.length, what, what === 'tier' ? 'tiers' : 'categories')} of the selection`;
  throw conflict(`${label} ${records.length === 1 ? 'is' : 'are'} used by ${plural(total, 'character')}: it cannot be deleted. Set its status to Inactive instead (it then stays on existing cards and is no longer offered).`);
}

/**
 * A tier the booster packs draw with cannot be deleted either: named in the settings' odds or their
 * guaranteed tier, or in a pack's own odds (an opening would lose a tier its odds count on). The
 * settings or the pack say where; the admin changes the odds first, or deactivates the tier.
 */
export async function assertTierNotInOdds(tx: DbOrTx, records: ApiRecord[]): Promise<void> {
  const ids = records.map((r) => String(r._id));
  const rows = await queryRows<{ tier_id: string; place: string }>(tx, sql`
    select t."tierId" as tier_id, 'the booster pack settings' as place from booster_pack_settings s, jsonb_to_recordset(s.tier_odds) as t("tierId" text)
      where t."tierId" = any(${`{${ids.join(',')}}`}::text[])
    union all
    select s.guaranteed_tier_id::text, 'the booster pack settings (guaranteed tier)' from booster_pack_settings s
      where s.guaranteed_tier_id::text = any(${`{${ids.join(',')}}`}::text[])
    union all
    select t."tierId", 'the pack "' || p.name || '"' from booster_packs p, jsonb_to_recordset(p.odds_override) as t("tierId" text)
      where p.odds_override is not null and t."tierId" = any(${`{${ids.join(',')}}`}::text[])`);
  if (!rows.length) return;
  const record = records.find((r) => String(r._id) === rows[0]!.tier_id);
  const places = [...new Set(rows.map((r) => r.place))];
  const where = places.length > 2 ? `${places.slice(0, 2).join(', ')} and ${places.length - 2} more` : places.join(' and ');
  const label = records.length === 1 ? `The tier "${String(record?.name ?? '')}"` : `The tier "${String(record?.name ?? '')}" of the selection`;
  throw conflict(`${label} is in the booster pack odds of ${where}: it cannot be deleted. Take it out of those odds first, or set its status to Inactive.`);
}

/** A character with minted cards keeps its history: deactivate it instead. */
export async function assertCharactersDeletable(tx: DbOrTx, records: ApiRecord[]): Promise<void> {
  const ids = records.map((r) => Number(r._id));
  const [owned] = await tx.select({ n: sql<number>`count(*)::int` }).from(userCards).where(inArray(userCards.characterId, ids));
  const minted = records.reduce((sum, r) => sum + Number(r.mintedCount ?? 0), 0);
  const n = Math.max(Number(owned!.n), minted);
  if (n > 0) {
    throw conflict(`${records.length === 1 ? `"${String(records[0]!.name)}" has` : 'The selection has'} ${plural(n, 'minted card')}: it cannot be deleted. Set its status to Inactive instead (no more are minted; owners keep theirs).`);
  }
}

/** A new supply may not go below what has been minted (the row is locked by the update). */
export function prepareCharacterUpdate(input: Row, existing: Row): Row {
  if (input.maxSupply !== undefined && Number(input.maxSupply) < Number(existing.mintedCount)) {
    throw badRequest(`Max supply cannot go below the ${existing.mintedCount} already minted`, { maxSupply: `At least ${existing.mintedCount} (already minted)` });
  }
  return input;
}
