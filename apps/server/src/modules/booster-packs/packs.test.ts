import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { userCards } from '../cards/table.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, platformBalance } from '../ledger/service.js';
import { ledgerTransactions } from '../ledger/table.js';
import { storeCodes } from '../offline-stores/table.js';
import { call, makeSubAdmin, } from '../../../test/helpers.js';
import { fund, makeCoin, makeUser, newPlatformKey, platformCall, type MoneyFixture, type PlatformCallOptions, moneyFile } from '../../../test/money-helpers.js';
import { queryRows } from '../../db/client.js';
import { runRewardGrants } from '../reward-cards/service.js';
import { purchaseAndOpenMany } from './bulk.js';
import { verifyDraw } from './opening.js';
import { sha256Hex } from './service.js';
import { boosterPacks, packOpenings, packPurchases } from './table.js';
import { slugify } from '../../lib/slug.js';

/**
 * Booster packs and offline stores through the admin and platform APIs: the pack's declaration and
 * states, purchases (one ledger transaction into pack sales, supply never passed, also with 50 buyers
 * at once on PostgreSQL), store allocations and their codes (shown once, stored hashed, redeemed once
 * even when two arrive at once). The books must be healthy after the file.
 */
const KEY = newPlatformKey();
let f: MoneyFixture;
let token: string;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

moneyFile((m) => ({ f, token } = m), { platformKey: KEY });

const platform = (method: 'GET' | 'POST', path: string, opts: PlatformCallOptions = {}) => platformCall(f.s, KEY, method, path, opts);
const admin = (method: string, path: string, body?: unknown, t = token) => call(f.s, method, `/api/admin/${path}`, { token: t, ...(body === undefined ? {} : { body }) });

let seq = 0;
async function makePack(over: Record<string, unknown> = {}) {
  const coin = await makeCoin(f);
  const res = await admin('POST', 'booster-packs', { name: `Pack ${Date.now().toString(36)}${++seq}`, coinId: String(coin.id), price: '5000000', supply: 10, ...over });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { pack: res.body.result, coin };
}
const activate = async (id: string) => expect((await admin('POST', `booster-packs/${id}/activate`)).status).toBe(200);

describe('booster packs', () => {
  it('is created as a draft, refuses bad input with a 400 on the field, and is sold only once on sale', async () => {
    const coin = await makeCoin(f);
    const bad = await admin('POST', 'booster-packs', { name: 'X', coinId: String(coin.id), price: '0', supply: 0 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['name', 'price', 'supply']));
    const odds = await admin('POST', 'booster-packs', { name: 'Odd pack', coinId: String(coin.id), price: '10', supply: 5, oddsOverride: [{ tierId: '1', percent: '60.00' }, { tierId: '2', percent: '39.99' }] });
    expect(odds.status).toBe(400);
    expect(JSON.stringify(odds.body.errors)).toMatch(/99\.99 %/);
    const precise = await admin('POST', 'booster-packs', { name: 'Odd pack', coinId: String(coin.id), price: '10', supply: 5, oddsOverride: [{ tierId: '1', percent: '100.001' }] });
    expect(precise.status).toBe(400);

    const { pack } = await makePack();
    expect(pack).toMatchObject({ status: 'draft', sold: 0, supply: 10, priceText: expect.stringContaining('5') });
    const user = await makeUser(f);
    await fund(f, user.id, Number(pack.coinId), 50_000_000n);
    const refused = await platform('POST', `packs/${pack._id}/purchase`, { body: { userId: String(user.id) } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/not on sale/);
    await activate(pack._id);
    expect((await admin('POST', `booster-packs/${pack._id}/activate`)).status).toBe(409);
  });

  it('a purchase debits the price into pack sales in one ledger transaction; short of money: 409 and nothing kept', async () => {
    const { pack, coin } = await makePack({ price: '7000000' });
    await activate(pack._id);
    const rich = await makeUser(f);
    const poor = await makeUser(f);
    await fund(f, rich.id, coin.id, 10_000_000n);
    await fund(f, poor.id, coin.id, 6_999_999n);

    const key = randomUUID();
    const ok = await platform('POST', `packs/${pack._id}/purchase`, { body: { userId: String(rich.id) }, key });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result).toMatchObject({ packId: pack._id, userId: String(rich.id), source: 'platform', price: '7000000', coin: coin.symbol, opened: false });
    const again = await platform('POST', `packs/${pack._id}/purchase`, { body: { userId: String(rich.id) }, key });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.raw).toBe(ok.raw);
    expect((await balanceOf(f.db, rich.id, coin.id)).available).toBe(3_000_000n);
    expect(await platformBalance(f.db, 'pack_sales', coin.id)).toBe(7_000_000n);
    const txns = await f.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.refId, Number(ok.body.result._id)));
    expect(txns.filter((t) => t.cause === 'pack_purchase')).toHaveLength(1);

    const short = await platform('POST', `packs/${pack._id}/purchase`, { body: { userId: String(poor.id) } });
    expect(short.status).toBe(409);
    expect(short.body.message).toBe('Insufficient balance');
    const [row] = await f.db.select().from(boosterPacks).where(eq(boosterPacks.id, Number(pack._id)));
    expect(row!.sold).toBe(1);
    expect((await balanceOf(f.db, poor.id, coin.id)).available).toBe(6_999_999n);
    expect((await f.db.select().from(packPurchases).where(eq(packPurchases.userId, poor.id)))).toHaveLength(0);
  });

  it('sells the last pack once and turns sold out; the supply cannot go below what is sold', async () => {
    const { pack, coin } = await makePack({ supply: 2, price: '100' });
    await activate(pack._id);
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 1_000n);
    for (let i = 0; i < 2; i++) expect((await platform('POST', `packs/${pack._id}/purchase`, { body: { userId: String(user.id) } })).status).toBe(200);
    const third = await platform('POST', `packs/${pack._id}/purchase`, { body: { userId: String(user.id) } });
    expect(third.status).toBe(409);
    expect(third.body.message).toMatch(/Sold out/);
    const after = await admin('GET', `booster-packs/${pack._id}`);
    expect(after.body.result).toMatchObject({ status: 'sold_out', sold: 2, available: 0 });
    const lower = await admin('PATCH', `booster-packs/${pack._id}`, { supply: 1 });
    expect(lower.status, JSON.stringify(lower.body)).toBe(400);
    expect(lower.body.errors.supply).toMatch(/At least 2/);
    expect((await balanceOf(f.db, user.id, coin.id)).available).toBe(800n);
  });

  it('answers 403 to an admin without Boostercards edit, and shows the pack to a viewer', async () => {
    const { pack } = await makePack();
    const viewer = await makeSubAdmin(f.s, [{ name: 'Boostercards', canView: true, canEdit: false }], token);
    expect((await admin('GET', `booster-packs/${pack._id}`, undefined, viewer.token)).status).toBe(200);
    expect((await admin('POST', `booster-packs/${pack._id}/activate`, undefined, viewer.token)).status).toBe(403);
    expect((await admin('PATCH', `booster-packs/${pack._id}`, { name: 'Renamed by a viewer' }, viewer.token)).status).toBe(403);
  });

  it.runIf(onPostgres)('50 concurrent purchases of the last 10 packs: exactly 10 succeed, balances right', async () => {
    const { pack, coin } = await makePack({ supply: 10, price: '1000' });
    await activate(pack._id);
    const buyers = await Promise.all(Array.from({ length: 50 }, () => makeUser(f)));
    for (const b of buyers) await fund(f, b.id, coin.id, 5_000n);
    const results = await Promise.all(buyers.map((b) => platform('POST', `packs/${pack._id}/purchase`, { body: { userId: String(b.id) } })));
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(40);
    const [row] = await f.db.select().from(boosterPacks).where(eq(boosterPacks.id, Number(pack._id)));
    expect(row).toMatchObject({ sold: 10, status: 'sold_out' });
    expect(await platformBalance(f.db, 'pack_sales', coin.id)).toBe(10_000n);
    const winners = new Set(won.map((r) => r.body.result.userId));
    for (const b of buyers) expect((await balanceOf(f.db, b.id, coin.id)).available).toBe(winners.has(String(b.id)) ? 4_000n : 5_000n);
  });
});

describe('offline stores and redemption codes', () => {
  async function makeStore() {
    const res = await admin('POST', 'offline-stores', {
      name: `Store ${Date.now().toString(36)}${++seq}`, address: '1 rue de Rivoli', city: 'Paris', country: 'fr', latitude: '48.856613', longitude: '2.352222', contact: 'shop@example.test',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result;
  }

  it('refuses a store with bad coordinates, allocates packs out of the supply, and generates codes shown once and stored hashed', async () => {
    const bad = await admin('POST', 'offline-stores', { name: 'Nowhere', address: 'x', city: 'y', country: 'FRA', latitude: '91', longitude: '2.1234567', contact: 'c' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['country', 'latitude', 'longitude']));
    // Two letters that name no country (ZZ is "unknown region", QQ unassigned) are refused on the field too.
    for (const country of ['ZZ', 'qq']) {
      const nowhere = await admin('POST', 'offline-stores', { name: 'Nowhere', address: 'x', city: 'y', country, latitude: '48.8', longitude: '2.3', contact: 'c' });
      expect(nowhere.status, country).toBe(400);
      expect(nowhere.body.errors, country).toEqual({ country: 'No country has this code (ISO 3166: FR, US…)' });
    }
    const store = await makeStore();
    expect(store).toMatchObject({ country: 'FR', latitude: '48.856613' });
    const { pack } = await makePack({ supply: 10 });
    const tooMany = await admin('POST', 'store-allocations', { storeId: store._id, packId: pack._id, quantity: 11, price: '4500000' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.quantity).toMatch(/Only 10/);
    const alloc = await admin('POST', 'store-allocations', { storeId: store._id, packId: pack._id, quantity: 4, price: '4500000' });
    expect(alloc.status, JSON.stringify(alloc.body)).toBe(200);
    expect((await admin('GET', `booster-packs/${pack._id}`)).body.result).toMatchObject({ reserved: 4 });

    const gen = await admin('POST', `store-allocations/${alloc.body.result._id}/generate-codes`, { count: 3 });
    expect(gen.status, JSON.stringify(gen.body)).toBe(200);
    const codes: string[] = gen.body.result.actionOutput.rows.map((r: { code: string }) => r.code);
    expect(codes).toHaveLength(3);
    for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
    // The CSV's name says which store, pack and batch the codes are for.
    expect(gen.body.result.actionOutput.filename).toMatch(new RegExp(`^codes-${slugify(store.name, 'store', 40)}-${slugify(pack.name, 'pack', 40)}-\\d{8}-\\d{6}\\.csv$`));
    const stored = await f.db.select().from(storeCodes).where(eq(storeCodes.allocationId, Number(alloc.body.result._id)));
    expect(stored).toHaveLength(3);
    const raw = JSON.stringify(stored);
    for (const c of codes) expect(raw).not.toContain(c.replace(/-/g, '').slice(0, 16));
    const list = await admin('GET', 'store-codes', undefined);
    expect(list.raw).not.toContain(codes[0]!.slice(0, 11));
    const audit = await admin('GET', 'audit-log?resource=store-allocations');
    expect(audit.raw).not.toContain(codes[0]!);
    const over = await admin('POST', `store-allocations/${alloc.body.result._id}/generate-codes`, { count: 2 });
    expect(over.status).toBe(409);
  });

  it('an allocation is found by its store or its pack (the codes\' Allocation filter picks it by its title), and the codes list by it', async () => {
    const store = await makeStore();
    const { pack } = await makePack({ supply: 10 });
    const alloc = (await admin('POST', 'store-allocations', { storeId: store._id, packId: pack._id, quantity: 3, price: '100' })).body.result;
    expect(alloc.title).toBe(`${pack.name} at ${store.name}`);
    const other = (await admin('POST', 'store-allocations', { storeId: (await makeStore())._id, packId: (await makePack({ supply: 5 })).pack._id, quantity: 2, price: '100' })).body.result;
    for (const q of [store.name.slice(6).toLowerCase(), pack.name]) {
      const found = await admin('GET', `store-allocations?q=${encodeURIComponent(q)}`);
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      expect(found.body.result.items.map((a: { _id: string }) => a._id), q).toEqual([alloc._id]);
    }
    await admin('POST', `store-allocations/${alloc._id}/generate-codes`, { count: 2 });
    await admin('POST', `store-allocations/${other._id}/generate-codes`, { count: 1 });
    const codes = await admin('GET', `store-codes?allocationId=${alloc._id}`);
    expect(codes.body.result.items.map((c: { allocationId: string }) => c.allocationId)).toEqual([alloc._id, alloc._id]);
    // A reference filter takes an id only.
    expect((await admin('GET', 'store-codes?allocationId=comptoir')).status).toBe(400);
  });

  it('a code redeems once (twice in a row and two at once): the user gets the pack, the reserve moves to sold', async () => {
    const store = await makeStore();
    const { pack } = await makePack({ supply: 5 });
    const alloc = await admin('POST', 'store-allocations', { storeId: store._id, packId: pack._id, quantity: 2, price: '100' });
    const codes: string[] = (await admin('POST', `store-allocations/${alloc.body.result._id}/generate-codes`, { count: 2 })).body.result.actionOutput.rows.map((r: { code: string }) => r.code);
    const [u1, u2] = [await makeUser(f), await makeUser(f)];

    const first = await platform('POST', 'store-codes/redeem', { body: { userId: String(u1.id), code: codes[0]!.toLowerCase() } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.result).toMatchObject({ source: 'store_code', userId: String(u1.id), packId: pack._id, price: '0' });
    const second = await platform('POST', 'store-codes/redeem', { body: { userId: String(u2.id), code: codes[0] } });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/already redeemed/);
    expect((await platform('POST', 'store-codes/redeem', { body: { userId: String(u2.id), code: 'AAAAA-BBBBB-CCCCC-DDDDD' } })).status).toBe(404);
    expect((await platform('POST', 'store-codes/redeem', { body: { userId: String(u2.id), code: 'short' } })).status).toBe(400);

    const race = await Promise.all([u1, u2].map((u) => platform('POST', 'store-codes/redeem', { body: { userId: String(u.id), code: codes[1] } })));
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    const [row] = await f.db.select().from(boosterPacks).where(eq(boosterPacks.id, Number(pack._id)));
    expect(row).toMatchObject({ sold: 2, reserved: 0 });
    const allocation = await admin('GET', `store-allocations/${alloc.body.result._id}`);
    expect(allocation.body.result).toMatchObject({ redeemed: 2, codesGenerated: 2 });
  });
});

describe('opening: provably fair draw, verify, rewards', () => {
  const tiers: string[] = [];
  beforeAll(async () => {
    // The catalogue through the cards module's API: three tiers (the Epic characters with a supply of 2), three characters each.
    const stamp = Date.now().toString(36);
    const category = await admin('POST', 'card-categories', { name: `Heroes ${stamp}`, slug: `heroes-${stamp}` });
    expect(category.status, JSON.stringify(category.body)).toBe(200);
    for (const [i, name] of ['Common', 'Rare', 'Epic'].entries()) {
      const t = await admin('POST', 'card-tiers', { name: `${name} ${stamp}`, color: '#336699', dropWeight: [70, 25, 5][i], sortOrder: 100 + i });
      expect(t.status, JSON.stringify(t.body)).toBe(200);
      tiers.push(t.body.result._id);
      for (let k = 0; k < 3; k++) {
        const c = await admin('POST', 'card-characters', { name: `${name} hero ${k} ${stamp}`, categoryId: category.body.result._id, tierId: t.body.result._id, maxSupply: i === 2 ? 2 : 1000 });
        expect(c.status, JSON.stringify(c.body)).toBe(200);
      }
    }
  });

  it('settings refuse odds that do not sum to 100.00 % or name an unknown tier, and keep them in the tiers’ order', async () => {
    const bad = await admin('PATCH', 'booster-pack-settings', { tierOdds: [{ tierId: tiers[0], percent: '50' }, { tierId: tiers[1], percent: '49.99' }] });
    expect(bad.status).toBe(400);
    const unknown = await admin('PATCH', 'booster-pack-settings', { tierOdds: [{ tierId: '999999', percent: '100' }] });
    expect(unknown.status).toBe(400);
    const ok = await admin('PATCH', 'booster-pack-settings', {
      cardsPerPack: 4, guaranteedTierId: tiers[1], tierOdds: [{ tierId: tiers[2], percent: '5.5' }, { tierId: tiers[0], percent: '70' }, { tierId: tiers[1], percent: '24.50' }],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result.tierOdds.map((o: { tierId: string; percent: string }) => [o.tierId, o.percent])).toEqual([[tiers[0], '70.00'], [tiers[1], '24.50'], [tiers[2], '5.50']]);
    const guaranteeless = await admin('PATCH', 'booster-pack-settings', { tierOdds: [{ tierId: tiers[0], percent: '100' }] });
    expect(guaranteeless.status).toBe(400);
    expect(guaranteeless.body.errors.guaranteedTierId).toBeDefined();
  });

  it('a bought pack opens once from the committed seed; Verify says not revealed, then matches after rotation; another seed fails', async () => {
    const { pack, coin } = await makePack({ price: '100', supply: 5 });
    await activate(pack._id);
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 1_000n);
    const bought = await platform('POST', `packs/${pack._id}/purchase`, { body: { userId: String(user.id) } });
    const body = { userId: String(user.id), purchaseId: bought.body.result._id, clientSeed: 'lucky-7' };
    const noSeed = await platform('POST', `packs/${pack._id}/openings`, { body });
    expect(noSeed.status).toBe(409);
    expect(noSeed.body.message).toMatch(/No seed is committed/);

    const seed = await platform('GET', `users/${user.id}/seed`);
    expect(seed.status).toBe(200);
    expect(seed.body.result).toMatchObject({ nonce: 0, serverSeedHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const opened = await platform('POST', `packs/${pack._id}/openings`, { body });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.result).toMatchObject({ nonce: 0, clientSeed: 'lucky-7', serverSeedHash: seed.body.result.serverSeedHash });
    expect(opened.body.result.cards).toHaveLength(4);
    const owned = await f.db.select().from(userCards).where(eq(userCards.userId, user.id));
    expect(owned.map((c) => String(c.id)).sort()).toEqual(opened.body.result.cards.map((c: { userCardId: string }) => c.userCardId).sort());
    expect(owned.every((c) => c.source === 'pack_opening' && c.sourceId === opened.body.result._id)).toBe(true);
    expect(opened.body.result.cards.some((c: { tierId: string }) => c.tierId !== tiers[0])).toBe(true);
    const twice = await platform('POST', `packs/${pack._id}/openings`, { body });
    expect(twice.status).toBe(409);
    expect((await platform('GET', `users/${user.id}/seed`)).body.result.nonce).toBe(1);

    const openingId = opened.body.result._id;
    const early = await admin('POST', `pack-openings/${openingId}/verify`);
    expect(early.status).toBe(200);
    expect(early.body.result.actionOutput).toMatchObject({ ok: false, summary: expect.stringMatching(/Not verifiable yet/) });
    const history = await admin('GET', `pack-openings?packId=${pack._id}`);
    expect(history.body.result.items[0]).toMatchObject({ _id: openingId, username: user.username, revealed: false, serverSeed: null });

    const rotated = await platform('POST', `users/${user.id}/seed/rotate`, { body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.result.revealed).toMatchObject({ serverSeedHash: seed.body.result.serverSeedHash, openings: 1 });
    expect((await admin('GET', `pack-openings?packId=${pack._id}&revealed=true`)).body.result.items.map((o: { _id: string }) => o._id)).toEqual([openingId]);
    expect((await admin('GET', `pack-purchases?packId=${pack._id}&opened=true`)).body.result.items).toHaveLength(1);
    expect((await admin('GET', `pack-purchases?packId=${pack._id}&opened=false`)).body.result.items).toHaveLength(0);
    const csv = await admin('GET', `pack-openings/export?packId=${pack._id}`);
    expect(csv.status).toBe(200);
    expect(csv.raw).toContain(user.username);
    const verified = await admin('POST', `pack-openings/${openingId}/verify`);
    expect(verified.body.result.actionOutput.ok, JSON.stringify(verified.body)).toBe(true);
    expect(verified.body.result.actionOutput.rows).toHaveLength(4);

    // One byte of the server seed changed: the hash and the recomputed cards no longer match.
    const [row] = await f.db.select().from(packOpenings).where(eq(packOpenings.id, Number(openingId)));
    const revealed: string = rotated.body.result.revealed.serverSeed;
    const flip = (i: number) => `${revealed.slice(0, 2 * i)}${(Number.parseInt(revealed.slice(2 * i, 2 * i + 2), 16) ^ 0x01).toString(16).padStart(2, '0')}${revealed.slice(2 * i + 2)}`;
    expect(verifyDraw({ serverSeed: flip(0), serverSeedHash: seed.body.result.serverSeedHash, opening: row! }).output.summary).toMatch(/does not hash to the committed hash/);
    // With its own hash, another seed draws other cards: not every seed does (a small pool can repeat a draw), so look among
    // the seeds one byte away; the chance that all of them repeat these 4 cards is nil.
    const others = Array.from({ length: revealed.length / 2 }, (_, i) => verifyDraw({ serverSeed: flip(i), serverSeedHash: sha256Hex(flip(i)), opening: row! }).output);
    expect(others.every((o) => o.ok || /cards differ/.test(o.summary))).toBe(true);
    expect(others.some((o) => /cards differ/.test(o.summary))).toBe(true);
    expect(verifyDraw({ serverSeed: revealed, serverSeedHash: seed.body.result.serverSeedHash, opening: row! }).output.ok).toBe(true);
  });

  it('never mints past max supply: the Epic characters (supply 2 each) run out and the draw falls to another tier', async () => {
    const { pack, coin } = await makePack({ price: '1', supply: 40, oddsOverride: [{ tierId: tiers[2], percent: '100' }], cardsPerPack: 3 });
    await activate(pack._id);
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 100n);
    await platform('GET', `users/${user.id}/seed`);
    for (let i = 0; i < 3; i++) {
      const b = await platform('POST', `packs/${pack._id}/purchase`, { body: { userId: String(user.id) } });
      const o = await platform('POST', `packs/${pack._id}/openings`, { body: { userId: String(user.id), purchaseId: b.body.result._id } });
      expect(o.status, JSON.stringify(o.body)).toBe(200);
    }
    const epic = await queryRows<{ minted_count: number; max_supply: number }>(f.db, sql`select minted_count, max_supply from card_characters where tier_id = ${Number(tiers[2])}`);
    for (const c of epic) expect(c.minted_count).toBeLessThanOrEqual(c.max_supply);
    expect(epic.reduce((s, c) => s + c.minted_count, 0)).toBe(6);
  });

  it('a tier in the booster pack odds (the settings\' or a pack\'s own) cannot be deleted, also in bulk; out of the odds it can', async () => {
    const stamp = Date.now().toString(36);
    const spare = await admin('POST', 'card-tiers', { name: `Spare ${stamp}`, color: '#123456', dropWeight: 1, sortOrder: 200 });
    const other = await admin('POST', 'card-tiers', { name: `Other ${stamp}`, color: '#123456', dropWeight: 1, sortOrder: 201 });
    const [spareId, otherId] = [spare.body.result._id as string, other.body.result._id as string];
    const before = (await admin('GET', 'booster-pack-settings')).body.result;
    // In the settings' odds (no character uses it): 409 that says where, alone and in a bulk delete.
    const odds = [{ tierId: tiers[0], percent: '69' }, { tierId: tiers[1], percent: '24.50' }, { tierId: tiers[2], percent: '5.50' }, { tierId: spareId, percent: '1' }];
    expect((await admin('PATCH', 'booster-pack-settings', { tierOdds: odds })).status).toBe(200);
    const one = await admin('DELETE', `card-tiers/${spareId}`);
    expect(one.status).toBe(409);
    expect(one.body.message).toMatch(/in the booster pack odds of the booster pack settings: it cannot be deleted/);
    const bulk = await admin('POST', 'card-tiers/bulk', { action: 'delete', ids: [otherId, spareId] });
    expect(bulk.status).toBe(409);
    expect(bulk.body.message).toMatch(/booster pack odds/);
    expect((await admin('GET', `card-tiers/${otherId}`)).status).toBe(200); // nothing deleted
    // Out of the settings, in a pack's own odds: still refused, naming the pack.
    expect((await admin('PATCH', 'booster-pack-settings', { tierOdds: before.tierOdds })).status).toBe(200);
    const { pack } = await makePack({ oddsOverride: [{ tierId: tiers[0], percent: '90' }, { tierId: spareId, percent: '10' }] });
    const inPack = await admin('DELETE', `card-tiers/${spareId}`);
    expect(inPack.status).toBe(409);
    expect(inPack.body.message).toContain(`the pack "${pack.name}"`);
    // Out of every odds: deleted.
    expect((await admin('PATCH', `booster-packs/${pack._id}`, { oddsOverride: null })).status).toBe(200);
    expect((await admin('POST', 'card-tiers/bulk', { action: 'delete', ids: [otherId, spareId] })).status).toBe(200);
    expect((await admin('GET', `card-tiers/${spareId}`)).status).toBe(404);
  });

  it('a pack\'s own size and the settings\' guaranteed tier clear back to none (null)', async () => {
    const { pack } = await makePack({ cardsPerPack: 3 });
    const settings = (await admin('GET', 'booster-pack-settings')).body.result;
    expect(pack.cards).toBe(3);
    const cleared = await admin('PATCH', `booster-packs/${pack._id}`, { cardsPerPack: null });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.result).toMatchObject({ cardsPerPack: null, cards: settings.cardsPerPack });
    expect((await admin('PATCH', 'booster-pack-settings', { guaranteedTierId: tiers[1] })).status).toBe(200);
    const none = await admin('PATCH', 'booster-pack-settings', { guaranteedTierId: null });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.result.guaranteedTierId).toBeNull();
    expect((await admin('GET', 'booster-pack-settings')).body.result.guaranteedTierId).toBeNull();
    expect((await admin('PATCH', 'booster-pack-settings', { guaranteedTierId: settings.guaranteedTierId })).status).toBe(200);
  });

  it('the bulk path (demo volume) buys and opens in order with the rules of one by one: refusals, supply, the ledger, pools as seen one by one, verifiable', async () => {
    const stamp = Date.now().toString(36);
    const category = await admin('POST', 'card-categories', { name: `Bulk ${stamp}`, slug: `bulk-${stamp}` });
    const mythic = await admin('POST', 'card-tiers', { name: `Mythic ${stamp}`, color: '#aa00aa', dropWeight: 1, sortOrder: 150 });
    for (let k = 0; k < 2; k++) {
      expect((await admin('POST', 'card-characters', { name: `Mythic hero ${k} ${stamp}`, categoryId: category.body.result._id, tierId: mythic.body.result._id, maxSupply: 3 })).status).toBe(200);
    }
    const { pack, coin } = await makePack({ price: '10', supply: 9, cardsPerPack: 3, oddsOverride: [{ tierId: tiers[0], percent: '50' }, { tierId: mythic.body.result._id, percent: '50' }] });
    await activate(pack._id);
    const rich = await makeUser(f);
    const poor = await makeUser(f);
    await fund(f, rich.id, coin.id, 1_000n);
    await fund(f, poor.id, coin.id, 15n); // one pack
    await platform('GET', `users/${rich.id}/seed`);
    await platform('GET', `users/${poor.id}/seed`);
    const items = [
      { packId: Number(pack._id), userId: poor.id, open: true, clientSeed: 'mine' },
      { packId: Number(pack._id), userId: poor.id, open: true },
      ...Array.from({ length: 9 }, (_, i) => ({ packId: Number(pack._id), userId: rich.id, open: i % 4 !== 3 })),
    ];
    const res = await f.db.transaction((tx) => purchaseAndOpenMany(tx, f.platform, items));
    expect(res.items[1]!.refused).toBe('Insufficient balance');
    expect(res.items[10]!.refused).toMatch(/Sold out/);
    expect(res.purchases).toBe(9);
    expect(res.openings).toBe(7);
    const after = (await admin('GET', `booster-packs/${pack._id}`)).body.result;
    expect(after).toMatchObject({ sold: 9, status: 'sold_out', opened: 7 });
    expect((await balanceOf(f.db, poor.id, coin.id)).available).toBe(5n);
    expect((await balanceOf(f.db, rich.id, coin.id)).available).toBe(1_000n - 80n);
    const txns = await f.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.cause, 'pack_purchase'));
    const ids = res.items.flatMap((i) => (i.purchaseId ? [i.purchaseId] : []));
    expect(txns.filter((t) => ids.includes(Number(t.refId))).length).toBe(9);
    // The mythics (2 × 3) run out inside the batch: each opening's pool is what it would have seen one by one.
    const openings = await f.db.select().from(packOpenings).where(eq(packOpenings.packId, Number(pack._id))).orderBy(packOpenings.id);
    const chars = await queryRows<{ id: string; tier_id: string; max_supply: number; minted_count: number; status: string }>(f.db, sql`select id::text as id, tier_id::text as tier_id, max_supply, minted_count, status from card_characters`);
    for (const [k, o] of openings.entries()) {
      const later = openings.slice(k).flatMap((x) => x.cards.map((c) => c.characterId));
      const expected = chars
        .map((c) => ({ characterId: c.id, tierId: c.tier_id, remaining: c.max_supply - (c.minted_count - later.filter((x) => x === c.id).length) }))
        .filter((c) => c.remaining > 0 && chars.find((x) => x.id === c.characterId)!.status === 'active')
        .map((c) => ({ ...c, remaining: Math.min(c.remaining, 3) }));
      const byId = (a: { characterId: string }, b: { characterId: string }) => Number(a.characterId) - Number(b.characterId);
      expect([...o.pool].sort(byId), `opening ${k}`).toEqual(expected.sort(byId));
    }
    const mythicMinted = chars.filter((c) => c.tier_id === mythic.body.result._id).reduce((s, c) => s + c.minted_count, 0);
    expect(mythicMinted).toBe(6);
    expect(openings[0]).toMatchObject({ clientSeed: 'mine', nonce: 0 });
    expect(openings.filter((o) => o.userId === rich.id).map((o) => o.nonce)).toEqual([0, 1, 2, 3, 4, 5]);
    expect((await f.db.select().from(userCards).where(eq(userCards.userId, rich.id))).length).toBe(18);
    // Revealed, every opening of the batch verifies.
    await platform('POST', `users/${rich.id}/seed/rotate`, { body: {} });
    await platform('POST', `users/${poor.id}/seed/rotate`, { body: {} });
    for (const o of openings) {
      const v = await admin('POST', `pack-openings/${o.id}/verify`);
      expect(v.body.result.actionOutput.ok, JSON.stringify(v.body.result.actionOutput.summary)).toBe(true);
    }
    // Back out of the way of the other tests.
    await admin('PATCH', `card-tiers/${mythic.body.result._id}`, { status: 'inactive' });
  });

  it('a reward card is granted once to each qualifying user, with its ledger transaction from the rewards account', async () => {
    const coin = await makeCoin(f);
    const res = await admin('POST', 'reward-cards', { name: `Opener ${Date.now()}`, condition: 'packs_opened', threshold: '3', rewardKind: 'coin', rewardCoinId: String(coin.id), rewardAmount: '2500', supply: 100 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const bad = await admin('POST', 'reward-cards', { name: 'Bad reward', condition: 'trading_volume', threshold: '3', rewardKind: 'coin', rewardCoinId: String(coin.id), rewardAmount: '1', supply: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.periodDays).toBeDefined();
    await runRewardGrants(f.db);
    await runRewardGrants(f.db);
    const grants = await admin('GET', `reward-grants?rewardCardId=${res.body.result._id}`);
    expect(grants.body.result.items.length).toBeGreaterThanOrEqual(1);
    for (const g of grants.body.result.items) expect((await balanceOf(f.db, Number(g.userId), coin.id)).available).toBe(2_500n);
    expect(await platformBalance(f.db, 'rewards', coin.id)).toBe(-2_500n * BigInt(grants.body.result.items.length));
    expect((await admin('GET', `reward-cards/${res.body.result._id}`)).body.result.granted).toBe(grants.body.result.items.length);
  });

  it('a reward card stores only the parameters of its condition and reward (visibleWhen): the others become null, also when the condition changes', async () => {
    const coin = await makeCoin(f);
    const [character] = await queryRows<{ id: string }>(f.db, sql`select id::text as id from card_characters where status = 'active' order by id limit 1`);
    // Leftovers of another condition or reward are not refused: they do not apply, and are stored as null.
    const res = await admin('POST', 'reward-cards', {
      name: `Leftovers ${Date.now()}`, condition: 'packs_opened', threshold: '3', periodDays: 7, conditionCoinId: String(coin.id),
      rewardKind: 'card', rewardCharacterId: character!.id, rewardCoinId: String(coin.id), rewardAmount: '100', supply: 10,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ periodDays: null, conditionCoinId: null, rewardCoinId: null, rewardAmount: null, rewardCharacterId: character!.id });
    // What applies is still required.
    const missing = await admin('POST', 'reward-cards', { name: `Missing ${Date.now()}`, condition: 'total_deposits', threshold: '3', rewardKind: 'coin', rewardAmount: '5', supply: 1 });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors)).toEqual(['conditionCoinId']);
    // Moved to trading volume: its period is asked for; then to deposits: the period goes, the coin is asked for.
    const id = res.body.result._id;
    const noPeriod = await admin('PATCH', `reward-cards/${id}`, { condition: 'trading_volume' });
    expect(noPeriod.status).toBe(400);
    expect(noPeriod.body.errors.periodDays).toBeDefined();
    expect((await admin('PATCH', `reward-cards/${id}`, { condition: 'trading_volume', periodDays: 30 })).body.result.periodDays).toBe(30);
    const deposits = await admin('PATCH', `reward-cards/${id}`, { condition: 'total_deposits', conditionCoinId: String(coin.id), threshold: '1000' });
    expect(deposits.status, JSON.stringify(deposits.body)).toBe(200);
    expect(deposits.body.result).toMatchObject({ condition: 'total_deposits', periodDays: null, conditionCoinId: String(coin.id) });
    // A coin reward now: the character goes.
    const toCoin = await admin('PATCH', `reward-cards/${id}`, { rewardKind: 'coin', rewardCoinId: String(coin.id), rewardAmount: '250' });
    expect(toCoin.body.result).toMatchObject({ rewardKind: 'coin', rewardCharacterId: null, rewardAmount: '250' });
    await admin('DELETE', `reward-cards/${id}`);
  });
});
