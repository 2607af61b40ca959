import { packPlatformEndpoints as ep, type PlatformOpeningRecord, type PlatformPurchaseRecord, type PlatformSeedCommitment } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { coins } from '../coins/table.js';
import { platformWrites } from '../platform/routes.js';
import { redeemStoreCode } from '../offline-stores/service.js';
import { openPack } from './opening.js';
import { purchasePack, rotateSeed, seedCommitment } from './service.js';
import { boosterPacks, packOpenings, type PackOpeningRow, type PackPurchaseRow, type PackSeedRow } from './table.js';

export async function purchaseView(db: DbOrTx, p: PackPurchaseRow): Promise<PlatformPurchaseRecord> {
  const [pack] = await db.select({ name: boosterPacks.name }).from(boosterPacks).where(eq(boosterPacks.id, p.packId));
  const [coin] = await db.select({ symbol: coins.symbol }).from(coins).where(eq(coins.id, p.coinId));
  const [opened] = await db.select({ id: packOpenings.id }).from(packOpenings).where(eq(packOpenings.purchaseId, p.id));
  return {
    _id: String(p.id), packId: String(p.packId), pack: pack?.name ?? '', userId: String(p.userId), source: p.source, coin: coin?.symbol ?? '',
    price: p.price.toString(), opened: Boolean(opened), createdAt: p.createdAt.toISOString(),
  };
}

const commitment = (s: PackSeedRow): PlatformSeedCommitment => ({
  seedId: String(s.id), userId: String(s.userId), serverSeedHash: s.serverSeedHash, clientSeed: s.clientSeed, nonce: s.nonce,
});

const openingView = (o: PackOpeningRow, s: PackSeedRow): PlatformOpeningRecord => ({
  _id: String(o.id), purchaseId: String(o.purchaseId), packId: String(o.packId), userId: String(o.userId), seedId: String(o.seedId),
  serverSeedHash: s.serverSeedHash, clientSeed: o.clientSeed, nonce: o.nonce,
  cards: o.cards.map((c) => ({ index: c.index, characterId: c.characterId, character: c.character, tierId: c.tierId, tier: c.tier, userCardId: c.userCardId })),
  createdAt: o.createdAt.toISOString(),
});

/** `/api/platform/v1/packs/*`, the user's seed, and store codes: every write through the platform's idempotency. */
export function boosterPackPlatformRoutes(app: App, ctx: AppContext): void {
  const { idempotent, write, answer, actor } = platformWrites(ctx);

  route(app, ep.purchasePack, async (req, reply) =>
    idempotent(req, reply, async (tx) => {
      const { purchase } = await purchasePack(tx, actor(req), { packId: Number(req.params.id), userId: Number(req.body.userId) });
      return answer(ep.purchasePack, ok(await purchaseView(tx, purchase), 'Pack bought'));
    }), write);

  route(app, ep.openPack, async (req, reply) =>
    idempotent(req, reply, async (tx) => {
      const b = req.body;
      const { opening, seed } = await openPack(tx, actor(req), {
        packId: Number(req.params.id), userId: Number(b.userId), purchaseId: Number(b.purchaseId), ...(b.clientSeed !== undefined ? { clientSeed: b.clientSeed } : {}),
      });
      return answer(ep.openPack, ok(openingView(opening, seed), `Pack opened: ${opening.cards.length} cards`));
    }), write);

  route(app, ep.seed, async (req) => {
    const seed = await ctx.db.transaction((tx) => seedCommitment(tx, { kind: 'platform', ip: req.ip }, Number(req.params.id)));
    return ok(commitment(seed));
  });

  route(app, ep.rotateSeed, async (req, reply) =>
    idempotent(req, reply, async (tx) => {
      const { revealed, current } = await rotateSeed(tx, actor(req), { userId: Number(req.params.id), ...(req.body.clientSeed !== undefined ? { clientSeed: req.body.clientSeed } : {}) });
      const result = {
        revealed: revealed ? { seedId: String(revealed.id), serverSeed: revealed.serverSeed, serverSeedHash: revealed.serverSeedHash, clientSeed: revealed.clientSeed, openings: revealed.nonce } : null,
        current: commitment(current),
      };
      return answer(ep.rotateSeed, ok(result, revealed ? 'Seed revealed; a new one is committed' : 'Seed committed'));
    }), write);

  route(app, ep.redeemStoreCode, async (req, reply) =>
    idempotent(req, reply, async (tx) => {
      const purchase = await redeemStoreCode(tx, actor(req), { userId: Number(req.body.userId), code: req.body.code });
      return answer(ep.redeemStoreCode, ok(await purchaseView(tx, purchase), 'Code redeemed: the pack is the user’s'));
    }), write);
}
