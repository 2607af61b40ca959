import { createHmac } from 'node:crypto';
import { drawPack, DrawError, type DrawnCard, type HmacSha256 } from '@pitboss/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { conflict, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import type { ActionAnswer } from '../../resources/define.js';
import { loadUser } from '../users/service.js';
import { fullOdds, mintCards, poolOf } from './catalogue.js';
import { activeSeed, loadPackSettings, sha256Hex } from './service.js';
import { boosterPacks, packOpenings, packPurchases, packSeeds, type PackOpeningRow, type PackSeedRow, type StoredCard } from './table.js';
import { ADVISORY_LOCKS } from '../../lib/locks.js';

export const hmacSha256: HmacSha256 = (key, message) => createHmac('sha256', key).update(message, 'utf8').digest();

/**
 * Transaction advisory lock taken by every opening: openings run one at a time, so the pool each one
 * reads (characters below their max supply) is exactly what it mints from, and a recorded pool is the
 * pool its draw saw. The mint's own conditional UPDATE stays the database's guard against passing a
 * max supply.
 */
export const OPENING_LOCK = ADVISORY_LOCKS.packOpenings;

/**
 * Opens a purchased pack (docs/cards-and-packs.md, "Provably fair openings"): the purchase must be the user's, of
 * this pack, not opened yet; openings must be enabled; the user must hold a committed seed (fetched
 * through `GET users/:id/seed` before, so its hash was shown). A `clientSeed` replaces the seed's
 * client seed from this opening on. The cards are drawn with `drawPack` from the seed, client seed
 * and nonce (then the nonce moves on), over the pack's odds (its override or the settings') and the
 * settings' guaranteed tier, and minted to the user; the opening stores everything a verifier needs.
 */
export async function openPack(
  tx: DbOrTx,
  actor: Actor,
  input: { packId: number; userId: number; purchaseId: number; clientSeed?: string },
): Promise<{ opening: PackOpeningRow; seed: PackSeedRow }> {
  await loadUser(tx, input.userId);
  const [purchase] = await tx.select().from(packPurchases).where(eq(packPurchases.id, input.purchaseId)).for('update');
  if (!purchase || purchase.userId !== input.userId || purchase.packId !== input.packId) throw notFound('Purchase of this pack by this user');
  const [done] = await tx.select({ id: packOpenings.id }).from(packOpenings).where(eq(packOpenings.purchaseId, purchase.id));
  if (done) throw conflict('This pack is already opened', { purchaseId: `Opened as opening ${done.id}` });
  const settings = await loadPackSettings(tx);
  if (!settings.openingEnabled) throw conflict('Opening packs is switched off in the booster pack settings');
  const [pack] = await tx.select().from(boosterPacks).where(eq(boosterPacks.id, purchase.packId));
  const named = pack!.oddsOverride ?? settings.tierOdds;
  if (named.length === 0) throw conflict('No tier odds are set: set them in the booster pack settings');
  const odds = await fullOdds(tx, named);
  const cards = pack!.cardsPerPack ?? settings.cardsPerPack;
  const guaranteed = settings.guaranteedTierId !== null && odds.some((o) => o.tierId === String(settings.guaranteedTierId)) ? String(settings.guaranteedTierId) : null;

  let seed = await activeSeed(tx, input.userId, true);
  if (!seed) throw conflict('No seed is committed for this user yet: fetch GET /api/platform/v1/users/:id/seed and show its hash first');
  if (input.clientSeed !== undefined && input.clientSeed !== seed.clientSeed) {
    const [updated] = await tx.update(packSeeds).set({ clientSeed: input.clientSeed }).where(eq(packSeeds.id, seed.id)).returning();
    seed = updated!;
  }
  const nonce = seed!.nonce;

  await queryRows(tx, sql`select pg_advisory_xact_lock(${OPENING_LOCK})`);
  const pool = await poolOf(tx, odds.map((o) => o.tierId), cards);
  let drawn: DrawnCard[];
  try {
    drawn = drawPack({ serverSeed: seed!.serverSeed, clientSeed: seed!.clientSeed, nonce, cards, odds, guaranteedTierId: guaranteed, pool }, hmacSha256);
  } catch (err) {
    if (err instanceof DrawError) throw conflict(err.message);
    throw err;
  }
  const [opening] = await tx
    .insert(packOpenings)
    .values({ purchaseId: purchase.id, packId: purchase.packId, userId: input.userId, seedId: seed!.id, clientSeed: seed!.clientSeed, nonce, odds, guaranteedTierId: guaranteed, pool, cards: [] })
    .returning();
  const minted = await mintCards(tx, actor, { userId: input.userId, characterIds: drawn.map((d) => d.characterId), source: 'pack_opening', sourceId: opening!.id });
  const stored: StoredCard[] = drawn.map((d, i) => ({
    index: d.index, characterId: d.characterId, character: minted[i]!.character, tierId: d.tierId, tier: minted[i]!.tier, rolledTierId: d.rolledTierId, userCardId: minted[i]!.userCardId,
  }));
  const [saved] = await tx.update(packOpenings).set({ cards: stored }).where(eq(packOpenings.id, opening!.id)).returning();
  await tx.update(packSeeds).set({ nonce: nonce + 1 }).where(and(eq(packSeeds.id, seed!.id), eq(packSeeds.nonce, nonce)));
  await writeAudit(tx, actor, {
    action: 'open_pack', resource: 'pack-openings', recordId: opening!.id,
    after: { purchaseId: purchase.id, packId: purchase.packId, userId: input.userId, seedId: seed!.id, serverSeedHash: seed!.serverSeedHash, clientSeed: seed!.clientSeed, nonce, cards: stored.map((c) => `${c.character} (${c.tier})`) },
  });
  return { opening: saved!, seed: { ...seed!, nonce: nonce + 1 } };
}

/**
 * Recomputes an opening's draw from its revealed server seed and what it stored (client seed, nonce,
 * odds, guaranteed tier, pool) and compares it card by card with what it gave; also checks that the
 * revealed seed hashes to the committed hash. Not revealed yet: says so and compares nothing.
 */
export async function verifyOpening(tx: DbOrTx, openingId: number): Promise<ActionAnswer> {
  const [row] = await tx.select({ opening: packOpenings, seed: packSeeds }).from(packOpenings).innerJoin(packSeeds, eq(packSeeds.id, packOpenings.seedId)).where(eq(packOpenings.id, openingId));
  if (!row) throw notFound('Pack opening');
  const { opening, seed } = row;
  if (seed.revealedAt === null) {
    const summary = `Not verifiable yet: the server seed (SHA-256 ${seed.serverSeedHash.slice(0, 16)}…) is revealed when the user rotates their seed`;
    return { message: summary, output: { summary, ok: false, rows: [] } };
  }
  return verifyDraw({ serverSeed: seed.serverSeed, serverSeedHash: seed.serverSeedHash, opening });
}

/** The comparison itself, from a server seed (the revealed one, or any other to show that it fails). */
export function verifyDraw(input: { serverSeed: string; serverSeedHash: string; opening: PackOpeningRow }): ActionAnswer {
  const { opening } = input;
  const hashOk = sha256Hex(input.serverSeed) === input.serverSeedHash;
  let recomputed: DrawnCard[] = [];
  let drawError: string | null = null;
  try {
    recomputed = drawPack(
      { serverSeed: input.serverSeed, clientSeed: opening.clientSeed, nonce: opening.nonce, cards: opening.cards.length, odds: opening.odds, guaranteedTierId: opening.guaranteedTierId, pool: opening.pool },
      hmacSha256,
    );
  } catch (err) {
    drawError = (err as Error).message;
  }
  const name = (characterId: string) => opening.cards.find((c) => c.characterId === characterId);
  const rows = opening.cards.map((c, i) => {
    const r = recomputed[i];
    const match = r !== undefined && r.characterId === c.characterId && r.tierId === c.tierId;
    const other = r ? name(r.characterId) : undefined;
    return {
      card: String(i + 1), recorded: `${c.character} (${c.tier}) #${c.characterId}`,
      recomputed: r ? (other ? `${other.character} (${other.tier}) #${r.characterId}` : `#${r.characterId} (tier #${r.tierId})`) : '—',
      tierRoll: r ? String(r.tierRoll) : '—', characterRoll: r ? String(r.characterRoll) : '—', match: match ? 'yes' : 'NO',
    };
  });
  const cardsOk = drawError === null && rows.every((r) => r.match === 'yes');
  const ok = hashOk && cardsOk;
  const summary = ok
    ? `Verified: SHA-256 of the revealed server seed is the committed hash, and the ${rows.length} recomputed cards match what the opening gave`
    : !hashOk
      ? 'Does NOT verify: the server seed does not hash to the committed hash'
      : `Does NOT verify: ${drawError ?? `${rows.filter((r) => r.match !== 'yes').length} of ${rows.length} cards differ`}`;
  return { message: summary, output: { summary, ok, rows } };
}
