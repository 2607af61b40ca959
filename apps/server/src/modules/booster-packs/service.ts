import { createHash, randomBytes } from 'node:crypto';
import { defineSubject, recordView, transition } from '../../resources/transition.js';
import { boosterPackStates, CARDS_PER_PACK, formatBps, oddsToBps, type BoosterPackSettingsRecord } from '@pitboss/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Actor, AdminActor } from '../../context.js';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { conflict, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import type { Row } from '../../resources/define.js';
import { coins } from '../coins/table.js';
import { FieldErrors } from '../ledger/input.js';
import { INSUFFICIENT_BALANCE, postTransaction } from '../ledger/service.js';
import { loadUser } from '../users/service.js';
import { checkTierOdds, tierNamesOf } from './catalogue.js';
import {
  boosterPackSettings, boosterPacks, packPurchases, packSeeds,
  type BoosterPackRow, type BoosterPackSettingsRow, type PackPurchaseRow, type PackSeedRow, type StoredOdds,
} from './table.js';

// ── Settings ────────────────────────────────────────────────────────────────

/** The one settings row, created with its defaults the first time; `forUpdate` locks it. */
export async function loadPackSettings(db: DbOrTx, options: { forUpdate?: boolean } = {}): Promise<BoosterPackSettingsRow> {
  const select = () => (options.forUpdate ? db.select().from(boosterPackSettings).where(eq(boosterPackSettings.id, 1)).for('update') : db.select().from(boosterPackSettings).where(eq(boosterPackSettings.id, 1)));
  const [row] = await select();
  if (row) return row;
  await db.insert(boosterPackSettings).values({ id: 1 }).onConflictDoNothing();
  return (await select())[0]!;
}

/** Odds as the records show them: `Common 60.00 % · Rare 25.00 % …`. */
export const oddsText = (odds: StoredOdds, names: Map<string, string>) =>
  odds.length === 0 ? 'No odds set' : odds.filter((o) => o.bps > 0).map((o) => `${names.get(o.tierId) ?? `#${o.tierId}`} ${formatBps(o.bps)} %`).join(' · ');

export const oddsRecord = (odds: StoredOdds, _names?: Map<string, string>) => odds.map((o) => ({ tierId: o.tierId, percent: formatBps(o.bps) }));

export async function packSettingsRecord(db: DbOrTx, r: BoosterPackSettingsRow): Promise<BoosterPackSettingsRecord> {
  const names = await tierNamesOf(db);
  return {
    _id: String(r.id), cardsPerPack: r.cardsPerPack, tierOdds: oddsRecord(r.tierOdds, names), oddsText: oddsText(r.tierOdds, names),
    guaranteedTierId: r.guaranteedTierId === null ? null : String(r.guaranteedTierId), openingEnabled: r.openingEnabled, updatedAt: r.updatedAt.toISOString(),
  };
}

/** Applies a validated patch: odds as basis points in the tiers' order, each tier known; the guaranteed tier must have odds. */
export async function updatePackSettings(tx: DbOrTx, actor: AdminActor, patch: Record<string, unknown>, before: BoosterPackSettingsRow): Promise<BoosterPackSettingsRow> {
  const set: Partial<typeof boosterPackSettings.$inferInsert> = { updatedAt: new Date(), updatedBy: actor.admin.id };
  const errors = new FieldErrors();
  if (patch.cardsPerPack !== undefined) set.cardsPerPack = Number(patch.cardsPerPack);
  if (patch.openingEnabled !== undefined) set.openingEnabled = Boolean(patch.openingEnabled);
  let odds = before.tierOdds;
  if (patch.tierOdds !== undefined) {
    odds = await checkTierOdds(tx, oddsToBps(patch.tierOdds as { tierId: string; percent: string }[]), errors, 'tierOdds');
    set.tierOdds = odds;
  }
  let guaranteed = before.guaranteedTierId === null ? null : String(before.guaranteedTierId);
  if (patch.guaranteedTierId !== undefined) {
    guaranteed = patch.guaranteedTierId === null || patch.guaranteedTierId === '' ? null : String(patch.guaranteedTierId);
    set.guaranteedTierId = guaranteed === null ? null : Number(guaranteed);
  }
  if (guaranteed !== null && !odds.some((o) => o.tierId === guaranteed)) errors.add('guaranteedTierId', 'The guaranteed tier must be one of the tiers with odds');
  errors.throwIfAny();
  const [row] = await tx.update(boosterPackSettings).set(set).where(eq(boosterPackSettings.id, 1)).returning();
  return row!;
}

// ── Packs (declared resource hooks) ─────────────────────────────────────────

async function checkCoin(tx: DbOrTx, coinId: unknown, errors: FieldErrors): Promise<void> {
  const id = Number(coinId);
  const [coin] = Number.isSafeInteger(id) ? await tx.select({ id: coins.id }).from(coins).where(eq(coins.id, id)) : [];
  if (!coin) errors.add('coinId', 'No such coin');
}

/** Column values of a new pack (odds in the tiers' order as basis points; a price as bigint). */
export async function preparePackCreate(input: Row, { tx }: { tx: DbOrTx }): Promise<Row> {
  const errors = new FieldErrors();
  await checkCoin(tx, input.coinId, errors);
  const override = input.oddsOverride ? await checkTierOdds(tx, oddsToBps(input.oddsOverride as { tierId: string; percent: string }[]), errors, 'oddsOverride') : null;
  errors.throwIfAny();
  return {
    name: input.name, imageUrl: input.imageUrl ?? '', coinId: Number(input.coinId), price: BigInt(String(input.price)),
    cardsPerPack: input.cardsPerPack ?? null, oddsOverride: override, supply: input.supply,
  };
}

/** A patch: the supply never below what is sold and reserved (the row is locked by the mechanism). */
export async function preparePackUpdate(input: Row, { tx, existing }: { tx: DbOrTx; existing: Row }): Promise<Row> {
  const errors = new FieldErrors();
  const out: Row = {};
  for (const k of ['name', 'imageUrl', 'cardsPerPack'] as const) if (input[k] !== undefined) out[k] = input[k];
  if (input.coinId !== undefined) {
    await checkCoin(tx, input.coinId, errors);
    out.coinId = Number(input.coinId);
  }
  if (input.price !== undefined) out.price = BigInt(String(input.price));
  if (input.oddsOverride !== undefined) {
    out.oddsOverride = input.oddsOverride === null ? null : await checkTierOdds(tx, oddsToBps(input.oddsOverride as { tierId: string; percent: string }[]), errors, 'oddsOverride');
  }
  if (input.supply !== undefined) {
    const [row] = await tx.select({ sold: boosterPacks.sold, reserved: boosterPacks.reserved }).from(boosterPacks).where(eq(boosterPacks.id, Number(existing.id)));
    const taken = (row?.sold ?? 0) + (row?.reserved ?? 0);
    if (Number(input.supply) < taken) errors.add('supply', `At least ${taken.toLocaleString('en')}: ${row?.sold ?? 0} sold and ${row?.reserved ?? 0} allocated to stores`);
    out.supply = input.supply;
  }
  errors.throwIfAny();
  return out;
}

/** A pack's moves: through its declared machine, audited with the pack's record (as its list shows it). */
export const packSubject = defineSubject({ resource: 'booster-packs', table: boosterPacks, machine: boosterPackStates, view: recordView(async () => (await import('./resource.js')).boosterPacksDef), label: 'Booster pack' });

/** Puts a pack on sale (from draft or paused): refused when nothing is left to sell. */
export async function activatePack(tx: DbOrTx, actor: Actor, id: number): Promise<BoosterPackRow> {
  const { after } = await transition(tx, actor, packSubject, id, 'activate', {
    check: (row) => {
      if (row.sold + row.reserved >= row.supply) throw conflict(`Nothing left to sell: ${row.sold} sold and ${row.reserved} allocated to stores of ${row.supply}; raise the supply first`, { supply: 'Raise the supply first' });
    },
  });
  return after;
}

/** Takes a pack off sale (from active). */
export async function pausePack(tx: DbOrTx, actor: Actor, id: number): Promise<BoosterPackRow> {
  return (await transition(tx, actor, packSubject, id, 'pause')).after;
}

// ── Purchase ────────────────────────────────────────────────────────────────

/**
 * Takes one pack off the shelf in ONE conditional UPDATE (on sale, and `sold + reserved < supply`):
 * concurrent buyers queue on the row and the last one to fit gets it; the pack turns sold out with
 * its last one. `fromReserve` takes one of the packs reserved for a store instead (a redeemed code).
 * Null when it did not fit (the caller says why).
 */
export async function takePack(tx: DbOrTx, packId: number, opts: { fromReserve?: boolean } = {}): Promise<BoosterPackRow | null> {
  const rows = await queryRows<{ id: string | number }>(tx, opts.fromReserve
    ? sql`update booster_packs set sold = sold + 1, reserved = reserved - 1, updated_at = now() where id = ${packId} and reserved > 0 returning id`
    : sql`update booster_packs set sold = sold + 1, updated_at = now(),
            status = case when sold + 1 + reserved >= supply then 'sold_out' else status end
          where id = ${packId} and status = 'active' and sold + reserved < supply returning id`);
  if (rows.length === 0) return null;
  const [row] = await tx.select().from(boosterPacks).where(eq(boosterPacks.id, packId));
  return row!;
}

/** Why a pack cannot be bought now (404 or 409). */
async function refusal(tx: DbOrTx, packId: number): Promise<never> {
  const [row] = await tx.select().from(boosterPacks).where(eq(boosterPacks.id, packId));
  if (!row) throw notFound('Booster pack');
  if (row.status === 'sold_out' || (row.status === 'active' && row.sold + row.reserved >= row.supply)) throw conflict('Sold out: every pack of this kind is sold');
  throw conflict(`This pack is not on sale (${boosterPackStates.states.find((s) => s.value === row.status)?.label ?? row.status})`);
}

/**
 * A user buys one pack: the pack taken off the shelf (one conditional UPDATE), a `pack_purchases`
 * row, and ONE ledger transaction (cause `pack_purchase`, ref the purchase) moving the price from the
 * user's available balance into the platform's `pack_sales` account of the pack's coin. Short of
 * money: 409 "Insufficient balance" and nothing is kept (the caller's transaction rolls back).
 */
export async function purchasePack(tx: DbOrTx, actor: Actor, input: { packId: number; userId: number }): Promise<{ purchase: PackPurchaseRow; pack: BoosterPackRow }> {
  const user = await loadUser(tx, input.userId);
  if (user.status !== 'active') throw conflict('This user is blocked', { userId: 'Blocked users cannot buy' });
  const pack = (await takePack(tx, input.packId)) ?? (await refusal(tx, input.packId));
  const [purchase] = await tx.insert(packPurchases).values({ packId: pack.id, userId: user.id, source: 'platform', price: pack.price, coinId: pack.coinId }).returning();
  await postTransaction(tx, actor, {
    cause: 'pack_purchase',
    ref: { type: 'pack_purchase', id: purchase!.id },
    postings: [
      { account: { user: user.id, bucket: 'available' }, coin: pack.coinId, amount: -pack.price },
      { account: { platform: 'pack_sales' }, coin: pack.coinId, amount: pack.price },
    ],
  }).catch((err: unknown) => {
    if (err instanceof Error && err.message === INSUFFICIENT_BALANCE) throw conflict(INSUFFICIENT_BALANCE, { userId: 'Not enough available balance for the pack’s price' });
    throw err;
  });
  await writeAudit(tx, actor, {
    action: 'purchase', resource: 'pack-purchases', recordId: purchase!.id,
    after: { packId: pack.id, pack: pack.name, userId: user.id, price: pack.price, coinId: pack.coinId, sold: pack.sold, supply: pack.supply },
  });
  return { purchase: purchase!, pack };
}

// ── Seeds (commit-reveal) ───────────────────────────────────────────────────

export const sha256Hex = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');
const newServerSeed = () => {
  const seed = randomBytes(32).toString('hex');
  return { serverSeed: seed, serverSeedHash: sha256Hex(seed) };
};
/** The default client seed of a new seed pair: 16 random hex digits (the user may set their own at any opening or rotation). */
const defaultClientSeed = () => randomBytes(8).toString('hex');

/** The user's active seed, locked when `forUpdate`; null when they have none yet. */
export async function activeSeed(tx: DbOrTx, userId: number, forUpdate = false): Promise<PackSeedRow | null> {
  const q = tx.select().from(packSeeds).where(and(eq(packSeeds.userId, userId), isNull(packSeeds.revealedAt)));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

/**
 * The user's current commitment, creating their first seed pair when they have none (the platform
 * shows the hash to the user before any opening: an opening refuses a user whose seed was never
 * fetched). Two calls at once create one (the unique index on the active seed).
 */
export async function seedCommitment(tx: DbOrTx, actor: Actor, userId: number): Promise<PackSeedRow> {
  await loadUser(tx, userId);
  const existing = await activeSeed(tx, userId);
  if (existing) return existing;
  const [created] = await tx.insert(packSeeds).values({ userId, ...newServerSeed(), clientSeed: defaultClientSeed() }).onConflictDoNothing().returning();
  if (created) {
    await writeAudit(tx, actor, { action: 'create', resource: 'pack-seeds', recordId: created.id, after: { userId, serverSeedHash: created.serverSeedHash, clientSeed: created.clientSeed } });
    return created;
  }
  return (await activeSeed(tx, userId))!;
}

/** Retires the active seed (its server seed is revealed from now on) and commits a new one. */
export async function rotateSeed(tx: DbOrTx, actor: Actor, input: { userId: number; clientSeed?: string }): Promise<{ revealed: PackSeedRow | null; current: PackSeedRow }> {
  await loadUser(tx, input.userId);
  const old = await activeSeed(tx, input.userId, true);
  let revealed: PackSeedRow | null = null;
  if (old) revealed = (await tx.update(packSeeds).set({ revealedAt: new Date() }).where(eq(packSeeds.id, old.id)).returning())[0] ?? null;
  const [current] = await tx
    .insert(packSeeds)
    .values({ userId: input.userId, ...newServerSeed(), clientSeed: input.clientSeed ?? old?.clientSeed ?? defaultClientSeed() })
    .returning();
  await writeAudit(tx, actor, {
    action: 'rotate_seed', resource: 'pack-seeds', recordId: current!.id,
    before: revealed ? { seedId: revealed.id, serverSeedHash: revealed.serverSeedHash, openings: revealed.nonce } : null,
    after: { userId: input.userId, serverSeedHash: current!.serverSeedHash, clientSeed: current!.clientSeed },
  });
  return { revealed: revealed ?? null, current: current! };
}

export { CARDS_PER_PACK };
