import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { adminActor, systemActor, type Actor } from '../context.js';
import { queryRows, type Db } from '../db/client.js';
import { admins, appMeta, boosterPackSettings, boosterPacks, offlineStores, rewardCards, storeAllocations } from '../db/schema.js';
import { writeAudit } from '../lib/audit.js';
import { purchaseAndOpenMany, type BulkItem } from '../modules/booster-packs/bulk.js';
import { rotateSeed, seedCommitment } from '../modules/booster-packs/service.js';
import { coinBySymbol } from '../modules/coins/service.js';
import { SETTLEMENT_COIN } from '../modules/orders/service.js';
import { generateCodes, redeemStoreCode } from '../modules/offline-stores/service.js';
import { runRewardGrants } from '../modules/reward-cards/service.js';
import { Random } from './money.js';
import sharp from 'sharp';
import { storeImage } from '../modules/uploads/images.js';
import type { ImageStore } from '../modules/uploads/storage.js';

/*
 * The demo's packs, stores and rewards, after the card catalogue (tiers and characters) exists:
 * settings with odds from the tiers' drop weights, three packs (two on sale, one draft), players with
 * USDC buying and opening packs through the same services as the platform API (their seeds fetched
 * first, some rotated afterwards so their openings verify), three offline stores with allocations and
 * codes (generated through the allocation's action, some redeemed), and reward cards granted by the
 * reward job's tick. Once per database (app_meta); skipped while there is no card catalogue.
 */

const META_KEY = 'demo_packs_seeded_at';
const PLATFORM: Actor = { kind: 'platform', ip: '203.0.113.10' };
/** Purchases at first start (about 80 % opened), in batches of `BATCH` through the set-based path (`purchaseAndOpenMany`: a few statements per batch, not ~35 per purchase). */
const PURCHASES = Number(process.env.DEMO_PACK_PURCHASES ?? 2_500);
const BATCH = 500;
const DAY = 86_400_000;

/** Basis points per tier from their drop weights (largest remainders), in the tiers' order. */
function oddsFromWeights(tiers: { id: string; weight: number }[]): { tierId: string; bps: number }[] {
  const total = tiers.reduce((s, t) => s + t.weight, 0);
  if (total <= 0) return [];
  const raw = tiers.map((t) => ({ tierId: t.id, exact: (t.weight * 10_000) / total }));
  const out = raw.map((r) => ({ tierId: r.tierId, bps: Math.floor(r.exact) }));
  let left = 10_000 - out.reduce((s, o) => s + o.bps, 0);
  for (const i of raw.map((r, i) => [r.exact - Math.floor(r.exact), i] as const).sort((a, b) => b[0] - a[0]).map(([, i]) => i)) {
    if (left-- <= 0) break;
    out[i]!.bps += 1;
  }
  return out;
}

/** A pack's wrapper as SVG: a foil gradient in its hue, a burst, stripes. No text (no fonts needed). */
function packSvg(hue: number, w = 300, h = 460): string {
  const rays = Array.from({ length: 16 }, (_, i) => {
    const a = (i * Math.PI) / 8;
    return `<line x1="${w / 2}" y1="${h * 0.45}" x2="${(w / 2 + Math.cos(a) * w).toFixed(1)}" y2="${(h * 0.45 + Math.sin(a) * w).toFixed(1)}" stroke="white" stroke-opacity="0.12" stroke-width="14"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="f" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},80%,55%)"/><stop offset="0.5" stop-color="hsl(${(hue + 40) % 360},85%,70%)"/><stop offset="1" stop-color="hsl(${(hue + 80) % 360},70%,35%)"/></linearGradient></defs>
<rect width="${w}" height="${h}" rx="18" fill="url(#f)"/>${rays}
<path d="M0 18 L${w / 20} 0 L${w / 10} 18 L${(3 * w) / 20} 0 L${w / 5} 18 L${w / 4} 0 L${(3 * w) / 10} 18 L${(7 * w) / 20} 0 L${(2 * w) / 5} 18 L${(9 * w) / 20} 0 L${w / 2} 18 L${(11 * w) / 20} 0 L${(3 * w) / 5} 18 L${(13 * w) / 20} 0 L${(7 * w) / 10} 18 L${(3 * w) / 4} 0 L${(4 * w) / 5} 18 L${(17 * w) / 20} 0 L${(9 * w) / 10} 18 L${(19 * w) / 20} 0 L${w} 18 Z" fill="hsl(${hue},40%,20%)" fill-opacity="0.5"/>
<circle cx="${w / 2}" cy="${h * 0.45}" r="${w * 0.26}" fill="white" fill-opacity="0.85"/>
<polygon points="${Array.from({ length: 10 }, (_, i) => { const a = -Math.PI / 2 + (i * Math.PI) / 5; const rr = i % 2 ? w * 0.09 : w * 0.21; return `${(w / 2 + Math.cos(a) * rr).toFixed(1)},${(h * 0.45 + Math.sin(a) * rr).toFixed(1)}`; }).join(' ')}" fill="hsl(${hue},75%,45%)"/>
<rect x="24" y="${h - 90}" width="${w - 48}" height="40" rx="10" fill="hsl(${hue},45%,18%)" fill-opacity="0.75"/>
</svg>`;
}

export async function seedPacks(db: Db, log: Pick<Logger, 'info'>, images?: ImageStore): Promise<boolean> {
  const [done] = await db.select().from(appMeta).where(eq(appMeta.key, META_KEY));
  if (done) return false;
  const tiers = await queryRows<{ id: string; name: string; weight: number }>(db, sql`
    select id::text as id, name, drop_weight as weight from card_tiers where status = 'active' order by sort_order, id`);
  const [{ n: characters } = { n: 0 }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from card_characters where status = 'active'`);
  const coin = await coinBySymbol(db, SETTLEMENT_COIN);
  if (tiers.length === 0 || characters === 0 || !coin) return false;
  const started = Date.now();
  const cpu = process.cpuUsage();
  const [ana] = await db.select().from(admins).where(eq(admins.email, 'ana.cards@pitboss.local'));
  const [root] = ana ? [ana] : await db.select().from(admins).where(eq(admins.role, 'superadmin')).limit(1);
  const by: Actor = root ? adminActor(root, '198.51.100.31') : systemActor('demo-seed');
  const r = new Random(20261127);
  // Online sales tell the last four weeks: the packs went on sale before them.
  const since = Date.now() - 28 * DAY;
  const onSale = new Date(since - 2 * DAY);
  const unit = 10n ** BigInt(coin.decimals);
  const odds = oddsFromWeights(tiers);
  const rare = tiers.length > 1 ? tiers[Math.floor(tiers.length / 2)]!.id : null;

  // Each pack's wrapper, drawn now (stored like an upload; none without an image store).
  const art = async (hue: number) => (images ? (await storeImage(images, await sharp(Buffer.from(packSvg(hue))).png({ compressionLevel: 1 }).toBuffer())).url : '');
  const [genesisArt, legendsArt, winterArt] = await Promise.all([art(200), art(35), art(170)]);

  const stats = await db.transaction(async (tx) => {
    await tx.insert(boosterPackSettings).values({ id: 1 }).onConflictDoNothing();
    await tx.update(boosterPackSettings).set({ cardsPerPack: 5, tierOdds: odds, guaranteedTierId: rare === null ? null : Number(rare), openingEnabled: true }).where(eq(boosterPackSettings.id, 1));
    await writeAudit(tx, by, { action: 'update', resource: 'booster-pack-settings', recordId: 1, after: { cardsPerPack: 5, tierOdds: odds, guaranteedTierId: rare } });
    // A richer pack: the rarer half of the tiers weighs double.
    const legendOdds = oddsFromWeights(tiers.map((t, i) => ({ id: t.id, weight: i >= tiers.length / 2 ? t.weight * 3 : t.weight })));
    const packRows = await tx
      .insert(boosterPacks)
      .values([
        { name: 'Genesis Booster', imageUrl: genesisArt, coinId: coin.id, price: 5n * unit, supply: 5_000, status: 'active', createdAt: onSale },
        { name: 'Legends Booster', imageUrl: legendsArt, coinId: coin.id, price: 20n * unit, cardsPerPack: 3, oddsOverride: legendOdds, supply: 600, status: 'active', createdAt: onSale },
        { name: 'Winter Special', imageUrl: winterArt, coinId: coin.id, price: 8n * unit, supply: 2_000, status: 'draft' },
      ])
      .returning();
    for (const p of packRows) await writeAudit(tx, by, { action: 'create', resource: 'booster-packs', recordId: p.id, after: { name: p.name, price: p.price, supply: p.supply } });
    const [genesis, legends] = packRows;

    // Stores get their packs before online sales start.
    const storeRows = await tx
      .insert(offlineStores)
      .values([
        { name: 'Le Comptoir des Cartes', address: '12 rue de Rivoli', city: 'Paris', country: 'FR', latitude: '48.856613', longitude: '2.352222', contact: 'comptoir@stores.pitboss.local' },
        { name: 'Kartenhaus Kreuzberg', address: 'Oranienstraße 34', city: 'Berlin', country: 'DE', latitude: '52.500782', longitude: '13.420136', contact: '+49 30 1234567' },
        { name: 'Dockside Games', address: '4 Harbour Row', city: 'Dublin', country: 'IE', latitude: '53.347778', longitude: '-6.259722', contact: 'hello@dockside.example' },
      ])
      .returning();
    const codes: string[] = [];
    for (const [i, s] of storeRows.entries()) {
      for (const [pack, qty] of [[genesis!, 60 - i * 10], [legends!, 10 + i * 5]] as const) {
        await tx.update(boosterPacks).set({ reserved: sql`${boosterPacks.reserved} + ${qty}` }).where(eq(boosterPacks.id, pack.id));
        const [a] = await tx.insert(storeAllocations).values({ storeId: s.id, packId: pack.id, quantity: qty, price: pack.price - unit / 2n }).returning();
        const generated = await generateCodes(tx, by, a!.id, Math.floor(qty / 2));
        codes.push(...generated.output.rows.map((row) => row.code!));
      }
    }

    // Players with USDC buy (and mostly open) packs: each buys only what their balance covers (as far as the seed knows).
    const wallets = await queryRows<{ user_id: string; balance: string; joined: string }>(tx, sql`
      select a.user_id::text as user_id, a.balance::text as balance, (extract(epoch from u.created_at) * 1000)::bigint::text as joined from ledger_accounts a join users u on u.id = a.user_id
      where a.bucket = 'available' and a.coin_id = ${coin.id} and a.balance >= ${(20n * unit).toString()} and u.status = 'active'
      order by a.balance desc limit 600`);
    const buyers = wallets.map((x) => Number(x.user_id));
    if (buyers.length === 0) return { purchases: 0, openings: 0, redeemed: 0 };
    const left = new Map(wallets.map((x) => [Number(x.user_id), BigInt(x.balance)]));
    const joined = new Map(wallets.map((x) => [Number(x.user_id), Number(x.joined)]));
    for (const u of buyers) await seedCommitment(tx, PLATFORM, u);
    // The purchases tell the last four weeks (their seeds committed before), in order: nonces grow with time.
    await tx.execute(sql`update pack_seeds s set created_at = greatest(${new Date(since - DAY).toISOString()}::timestamptz, u.created_at) from users u
      where u.id = s.user_id and s.revealed_at is null and s.user_id = any(${`{${buyers.join(',')}}`}::bigint[])`);
    // In batches through the set-based path (the same records as one by one, a few statements per batch).
    let purchases = 0;
    let openings = 0;
    for (let done = 0; done < PURCHASES; done += BATCH) {
      const batch: BulkItem[] = [];
      for (let k = done; k < Math.min(PURCHASES, done + BATCH); k++) {
        const pack = r.chance(0.8) ? genesis! : legends!;
        const at = new Date(since + Math.floor(((k + r.next()) * 28 * DAY) / PURCHASES));
        // Someone who had signed up by then, with the price left.
        const able = buyers.filter((u) => left.get(u)! >= pack.price && joined.get(u)! < at.getTime());
        if (able.length === 0) continue;
        const userId = r.pick(able);
        left.set(userId, left.get(userId)! - pack.price);
        batch.push({ userId, packId: pack.id, open: r.chance(0.8), at, ...(r.chance(0.05) ? { clientSeed: `lucky-${r.int(1, 999)}` } : {}) });
      }
      const res = await purchaseAndOpenMany(tx, PLATFORM, batch);
      purchases += res.purchases;
      openings += res.openings;
    }
    // Some players reveal their seed (their openings so far verify), and some redeem codes from a store.
    for (const u of buyers.slice(0, 60)) await rotateSeed(tx, PLATFORM, { userId: u });
    let redeemed = 0;
    for (const code of codes.filter((_, i) => i % 3 === 0)) {
      await redeemStoreCode(tx, PLATFORM, { userId: r.pick(buyers), code });
      redeemed++;
    }

    // Reward cards, granted by the job's tick below.
    // The card of the rarest tier that has one left: the openings above usually mint every
    // Legendary out (supply 10–50 each), and a reward without a card left was not seeded at all.
    const [rich] = await queryRows<{ id: string }>(tx, sql`select c.id::text as id from card_characters c join card_tiers t on t.id = c.tier_id
      where c.status = 'active' and c.minted_count < c.max_supply order by t.sort_order desc, t.id desc, c.id limit 1`);
    await tx.insert(rewardCards).values([
      { name: 'Pack opener', description: 'Open 5 packs, get 2 USDC back.', condition: 'packs_opened', threshold: 5n, rewardKind: 'coin', rewardCoinId: coin.id, rewardAmount: 2n * unit, supply: 1_000 },
      { name: 'Active trader', description: '100 shares traded in a week.', condition: 'trading_volume', threshold: 100n, periodDays: 7, rewardKind: 'coin', rewardCoinId: coin.id, rewardAmount: unit, supply: 200 },
      ...(rich ? [{ name: 'Whale welcome', description: 'Deposit 5,000 USDC in total: a rare card.', condition: 'total_deposits' as const, threshold: 5_000n * unit, conditionCoinId: coin.id, rewardKind: 'card' as const, rewardCharacterId: Number(rich.id), supply: 50 }] : []),
    ]);
    return { purchases, openings, redeemed };
  });
  const grants = await runRewardGrants(db);
  const used = process.cpuUsage(cpu);
  await db.insert(appMeta).values({ key: META_KEY, value: new Date().toISOString() }).onConflictDoNothing();
  log.info(`demo packs: ${stats.purchases} purchases, ${stats.openings} openings, ${stats.redeemed} store codes redeemed, ${grants?.granted.reduce((s, g) => s + g.users, 0) ?? 0} rewards granted (${Date.now() - started} ms, ${Math.round((used.user + used.system) / 1000)} ms CPU)`);
  return true;
}
