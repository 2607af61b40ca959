import { drawPack, DrawError, type DrawnCard } from '@pitboss/contract';
import { and, asc, eq, inArray, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import { actingAt, type Actor } from '../../context.js';
import { bulkInsert, bulkUpdateById } from '../../db/bulk.js';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { auditRows } from '../../lib/audit.js';
import { auditLog } from '../audit-log/table.js';
import { cardCharacters, cardTiers, userCards } from '../cards/table.js';
import { ledgerAccounts } from '../ledger/table.js';
import { ledgerWrites, lockLedgerAccounts, type PostInput } from '../ledger/service.js';
import { users } from '../users/table.js';
import { fullOdds } from './catalogue.js';
import { hmacSha256, OPENING_LOCK } from './opening.js';
import { loadPackSettings } from './service.js';
import { boosterPacks, packOpenings, packPurchases, packSeeds, type StoredCard, type StoredOdds } from './table.js';

/*
 * Many purchases (each optionally opened at once) in a few set-based statements: what
 * `purchasePack` then `openPack` do one by one (~35 statements each), for a whole batch. Used by the
 * demo seed to put thousands of purchases and openings in the demo (docs/cards-and-packs.md, "Booster packs › Demo
 * volume"). The same rules and the same records:
 *
 * - a purchase needs an active user, a pack on sale with `sold + reserved < supply` (the pack turns
 *   sold out with its last one) and the price in the user's available balance; it is a
 *   `pack_purchases` row, ONE balanced ledger transaction (cause `pack_purchase`, user available →
 *   platform `pack_sales`) and an audit entry, exactly as `purchasePack` writes them;
 * - an opening needs openings enabled, odds, and the user's committed seed; its draw is `drawPack`
 *   over the pool the opening would have seen had the batch run one by one (the batch keeps each
 *   character's remaining supply in memory, in item order), so every opening verifies like one made
 *   by `openPack`; the nonce moves on per opening; cards are minted (`minted_count` + n, under the
 *   CHECK that never passes max supply) and audited.
 *
 * Everything the batch reads is locked first (the packs, the ledger accounts in id order, the
 * seeds, then the opening lock: the order the services take them in), then the items are decided in memory in order (a refused one is reported
 * and changes nothing), then every write goes in ONE statement (data-modifying CTEs, ids reserved
 * from the sequences). The ledger's deferred "balanced" trigger checks each transaction at commit.
 */

export interface BulkItem {
  packId: number;
  userId: number;
  /** Open the pack right after buying it. */
  open?: boolean;
  /** The client seed of the opening (it replaces the seed's client seed from then on, as in `openPack`). */
  clientSeed?: string;
  /**
   * When it happened (the demo's story: its purchases spread over past weeks): the purchase's, the
   * opening's and the cards' time, and its ledger transaction's and audit entries' (the actor acting
   * then: `actingAt`). Default: now.
   */
  at?: Date;
}

export interface BulkResult {
  purchases: number;
  openings: number;
  /** Per item: the purchase and opening ids, or why it was refused. */
  items: { purchaseId?: number; openingId?: number; refused?: string }[];
}

interface PackState { id: number; name: string; price: bigint; coinId: number; cardsPerPack: number | null; oddsOverride: StoredOdds | null; supply: number; sold: number; reserved: number; status: string; changed: boolean }
interface SeedState { id: number; serverSeed: string; serverSeedHash: string; clientSeed: string; nonce: number; changed: boolean }

export async function purchaseAndOpenMany(tx: DbOrTx, actor: Actor, batch: BulkItem[]): Promise<BulkResult> {
  const result: BulkResult = { purchases: 0, openings: 0, items: batch.map(() => ({})) };
  if (batch.length === 0) return result;
  const opens = batch.some((b) => b.open);

  const packIds = [...new Set(batch.map((b) => b.packId))].sort((a, b) => a - b);
  const packRows = await tx.select().from(boosterPacks).where(inArray(boosterPacks.id, packIds)).orderBy(asc(boosterPacks.id)).for('update');
  const packs = new Map<number, PackState>(packRows.map((p) => [p.id, { ...p, changed: false }]));
  const userIds = [...new Set(batch.map((b) => b.userId))];
  const userRows = await tx.select({ id: users.id, status: users.status }).from(users).where(inArray(users.id, userIds));
  const active = new Set(userRows.filter((u) => u.status === 'active').map((u) => u.id));

  // Ledger accounts of every possible purchase, locked in id order; then the users' available balances.
  const coinIds = [...new Set(packRows.map((p) => p.coinId))];
  const possible = batch.filter((b) => active.has(b.userId) && packs.has(b.packId));
  const postings = possible.flatMap((b) => {
    const coin = packs.get(b.packId)!.coinId;
    return [{ account: { user: b.userId, bucket: 'available' as const }, coin, amount: 0n }, { account: { platform: 'pack_sales' as const }, coin, amount: 0n }];
  });
  const idByKey = postings.length ? await lockLedgerAccounts(tx, postings) : new Map<string, number>();
  const balanceRows = possible.length
    ? await tx
        .select({ userId: ledgerAccounts.userId, coinId: ledgerAccounts.coinId, balance: ledgerAccounts.balance })
        .from(ledgerAccounts)
        .where(and(inArray(ledgerAccounts.userId, [...active]), inArray(ledgerAccounts.coinId, coinIds), eq(ledgerAccounts.bucket, 'available')))
    : [];
  const balance = new Map(balanceRows.map((r) => [`${r.userId}:${r.coinId}`, r.balance]));

  // What the openings need: settings, odds over the whole catalogue, names, seeds and the pool.
  const settings = await loadPackSettings(tx);
  const tierRows = await tx.select({ id: cardTiers.id, name: cardTiers.name }).from(cardTiers);
  const tierName = new Map(tierRows.map((t) => [String(t.id), t.name]));
  const seedRows = opens
    ? await tx.select().from(packSeeds).where(and(inArray(packSeeds.userId, userIds), isNull(packSeeds.revealedAt))).orderBy(asc(packSeeds.id)).for('update')
    : [];
  const seeds = new Map<number, SeedState>(seedRows.map((s) => [s.userId, { ...s, changed: false }]));
  // Locks in the services' order (pack → ledger accounts as a purchase; seed → opening lock as an opening): no deadlock with them.
  if (opens) await queryRows(tx, sql`select pg_advisory_xact_lock(${OPENING_LOCK})`);
  const characterRows = opens
    ? await tx
        .select({ id: cardCharacters.id, name: cardCharacters.name, tierId: cardCharacters.tierId, remaining: sql<number>`(${cardCharacters.maxSupply} - ${cardCharacters.mintedCount})::int` })
        .from(cardCharacters)
        .where(and(eq(cardCharacters.status, 'active'), sql`${cardCharacters.mintedCount} < ${cardCharacters.maxSupply}`))
        .orderBy(asc(cardCharacters.id))
    : [];
  const characters = new Map(characterRows.map((c) => [String(c.id), { ...c, remaining: Number(c.remaining), minted: 0 }]));
  const oddsOf = new Map<number, StoredOdds>();
  for (const p of packRows) oddsOf.set(p.id, (p.oddsOverride ?? settings.tierOdds).length ? await fullOdds(tx, p.oddsOverride ?? settings.tierOdds) : []);

  // Decide every item in order, in memory.
  type Purchase = { index: number; pack: PackState; userId: number; sold: number; at: Date; actor: Actor };
  type Opening = { purchase: Purchase; seed: SeedState; clientSeed: string; nonce: number; odds: StoredOdds; guaranteed: string | null; pool: { characterId: string; tierId: string; remaining: number }[]; cards: StoredCard[] };
  const now = new Date();
  const purchases: Purchase[] = [];
  const openings: Opening[] = [];
  for (const [index, item] of batch.entries()) {
    const out = result.items[index]!;
    const pack = packs.get(item.packId);
    if (!pack) {
      out.refused = 'No such booster pack';
      continue;
    }
    if (!active.has(item.userId)) {
      out.refused = userRows.some((u) => u.id === item.userId) ? 'This user is blocked' : 'No such user';
      continue;
    }
    if (pack.status === 'sold_out' || (pack.status === 'active' && pack.sold + pack.reserved >= pack.supply)) {
      out.refused = 'Sold out: every pack of this kind is sold';
      continue;
    }
    if (pack.status !== 'active') {
      out.refused = 'This pack is not on sale';
      continue;
    }
    const key = `${item.userId}:${pack.coinId}`;
    const left = balance.get(key) ?? 0n;
    if (left < pack.price) {
      out.refused = 'Insufficient balance';
      continue;
    }
    balance.set(key, left - pack.price);
    pack.sold += 1;
    if (pack.sold + pack.reserved >= pack.supply) pack.status = 'sold_out';
    pack.changed = true;
    const purchase: Purchase = { index, pack, userId: item.userId, sold: pack.sold, at: item.at ?? now, actor: item.at ? actingAt(actor, item.at) : actor };
    purchases.push(purchase);
    if (!item.open) continue;

    const seed = seeds.get(item.userId);
    const odds = oddsOf.get(pack.id)!;
    if (!settings.openingEnabled) {
      out.refused = 'Opening packs is switched off in the booster pack settings';
      continue;
    }
    if (odds.length === 0) {
      out.refused = 'No tier odds are set';
      continue;
    }
    if (!seed) {
      out.refused = 'No seed is committed for this user yet';
      continue;
    }
    if (item.clientSeed !== undefined && item.clientSeed !== seed.clientSeed) {
      seed.clientSeed = item.clientSeed;
      seed.changed = true;
    }
    const cards = pack.cardsPerPack ?? settings.cardsPerPack;
    const guaranteed = settings.guaranteedTierId !== null && odds.some((o) => o.tierId === String(settings.guaranteedTierId)) ? String(settings.guaranteedTierId) : null;
    // The pool `poolOf` would read now: characters below max supply, remaining capped at the pack's size.
    const pool = [...characters.values()].filter((c) => c.remaining > 0).map((c) => ({ characterId: String(c.id), tierId: String(c.tierId), remaining: Math.min(c.remaining, cards) }));
    let drawn: DrawnCard[];
    try {
      drawn = drawPack({ serverSeed: seed.serverSeed, clientSeed: seed.clientSeed, nonce: seed.nonce, cards, odds, guaranteedTierId: guaranteed, pool }, hmacSha256);
    } catch (err) {
      if (err instanceof DrawError) {
      out.refused = err.message;
      continue;
    }
      throw err;
    }
    const stored: StoredCard[] = drawn.map((d) => {
      const c = characters.get(d.characterId)!;
      c.remaining -= 1;
      c.minted += 1;
      return { index: d.index, characterId: d.characterId, character: c.name, tierId: d.tierId, tier: tierName.get(d.tierId) ?? '', rolledTierId: d.rolledTierId, userCardId: null };
    });
    openings.push({ purchase, seed, clientSeed: seed.clientSeed, nonce: seed.nonce, odds, guaranteed, pool, cards: stored });
    seed.nonce += 1;
    seed.changed = true;
  }
  if (purchases.length === 0) return result;

  // Ids from the sequences, then every write in one statement.
  const cardCount = openings.reduce((s, o) => s + o.cards.length, 0);
  const ids = async (table: string, n: number) =>
    n === 0 ? [] : (await queryRows<{ id: string | number }>(tx, sql`select nextval(pg_get_serial_sequence(${table}, 'id')) as id from generate_series(1, ${n}::int)`)).map((r) => Number(r.id));
  const purchaseIds = await ids('pack_purchases', purchases.length);
  const ledgerIds = await ids('ledger_transactions', purchases.length);
  const openingIds = await ids('pack_openings', openings.length);
  const cardIds = await ids('user_cards', cardCount);
  const purchaseId = new Map(purchases.map((p, k) => [p, purchaseIds[k]!]));

  const ledger = purchases.map((p, k) => ({
    actor: p.actor,
    id: ledgerIds[k]!,
    input: {
      cause: 'pack_purchase',
      ref: { type: 'pack_purchase', id: purchaseId.get(p)! },
      postings: [
        { account: { user: p.userId, bucket: 'available' }, coin: p.pack.coinId, amount: -p.pack.price },
        { account: { platform: 'pack_sales' }, coin: p.pack.coinId, amount: p.pack.price },
      ],
    } satisfies PostInput,
  }));
  const cardRows: { id: number; userId: number; characterId: number; source: 'pack_opening'; sourceId: string; createdAt: Date }[] = [];
  let nextCard = 0;
  const openingRows = openings.map((o, k) => {
    const id = openingIds[k]!;
    for (const c of o.cards) {
      c.userCardId = String(cardIds[nextCard]!);
      cardRows.push({ id: cardIds[nextCard++]!, userId: o.purchase.userId, characterId: Number(c.characterId), source: 'pack_opening', sourceId: String(id), createdAt: o.purchase.at });
    }
    return { id, purchaseId: purchaseId.get(o.purchase)!, packId: o.purchase.pack.id, userId: o.purchase.userId, seedId: o.seed.id, clientSeed: o.clientSeed, nonce: o.nonce, odds: o.odds, guaranteedTierId: o.guaranteed, pool: o.pool, cards: o.cards, createdAt: o.purchase.at };
  });
  for (const [i, o] of openings.entries()) result.items[o.purchase.index]!.openingId = openingIds[i];
  for (const p of purchases) result.items[p.index]!.purchaseId = purchaseId.get(p);

  const audits = [
    ...purchases.map((p) => ({
      actor: p.actor,
      entry: { action: 'purchase' as const, resource: 'pack-purchases', recordId: purchaseId.get(p)!, after: { packId: p.pack.id, pack: p.pack.name, userId: p.userId, price: p.pack.price, coinId: p.pack.coinId, sold: p.sold, supply: p.pack.supply } },
    })),
    ...openings.map((o, k) => ({
      actor: o.purchase.actor,
      entry: {
        action: 'open_pack' as const, resource: 'pack-openings', recordId: openingIds[k]!,
        after: { purchaseId: purchaseId.get(o.purchase)!, packId: o.purchase.pack.id, userId: o.purchase.userId, seedId: o.seed.id, serverSeedHash: o.seed.serverSeedHash, clientSeed: o.clientSeed, nonce: o.nonce, cards: o.cards.map((c) => `${c.character} (${c.tier})`) },
      },
    })),
  ];
  const minted = [...characters.values()].filter((c) => c.minted > 0).map((c) => ({ id: String(c.id), n: c.minted }));
  const writes: SQLWrapper[] = [
    bulkInsert(packPurchases, purchases.map((p) => ({ id: purchaseId.get(p)!, packId: p.pack.id, userId: p.userId, source: 'platform', price: p.pack.price, coinId: p.pack.coinId, createdAt: p.at })), { overridingSystemValue: true }),
    ...ledgerWrites(ledger, idByKey),
    bulkUpdateById(boosterPacks, [...packs.values()].filter((p) => p.changed).map((p) => ({ id: p.id, sold: p.sold, status: p.status })), ['sold', 'status']),
    bulkInsert(auditLog, auditRows(audits)),
  ];
  if (openingRows.length) {
    writes.push(bulkInsert(packOpenings, openingRows, { overridingSystemValue: true }));
    writes.push(bulkInsert(userCards, cardRows, { overridingSystemValue: true }));
    writes.push(sql`update card_characters c set minted_count = c.minted_count + v.n from jsonb_to_recordset(${JSON.stringify(minted)}::jsonb) as v(id bigint, n int) where c.id = v.id`);
  }
  const seedChanges = [...seeds.values()].filter((s) => s.changed);
  if (seedChanges.length) writes.push(bulkUpdateById(packSeeds, seedChanges.map((s) => ({ id: s.id, nonce: s.nonce, clientSeed: s.clientSeed })), ['nonce', 'clientSeed']));
  await queryRows(tx, sql`with ${sql.join(writes.map((w, i) => sql`${sql.raw(`w${i}`)} as (${w.getSQL()})`), sql`, `)} select 1`);
  result.purchases = purchases.length;
  result.openings = openings.length;
  return result;
}
