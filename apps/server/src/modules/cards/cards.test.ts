import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, makeSubAdmin, } from '../../../test/helpers.js';
import { makeUser, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { grantCard, mintCharacter } from './service.js';
import { cardCharacters, cardTiers, userCards } from './table.js';

let f: MoneyFixture;
let token: string;
moneyFile((m) => ({ f, token } = m));

let seq = 0;
async function catalogue(maxSupply = 3) {
  const n = ++seq;
  const tier = await call(f.s, 'POST', '/api/admin/card-tiers', { token, body: { name: `Mythic ${n}`, color: '#AA33CC', dropWeight: 5, sortOrder: 4 } });
  expect(tier.status).toBe(200);
  const category = await call(f.s, 'POST', '/api/admin/card-categories', { token, body: { name: `Deep Sea ${n}`, slug: `deep-sea-${n}` } });
  expect(category.status).toBe(200);
  const character = await call(f.s, 'POST', '/api/admin/card-characters', {
    token,
    body: { name: `Kraken ${n}`, categoryId: category.body.result._id, tierId: tier.body.result._id, maxSupply, attributes: [{ key: 'Power', value: '9' }] },
  });
  expect(character.status).toBe(200);
  return { tier: tier.body.result, category: category.body.result, character: character.body.result };
}

describe('card catalogue', () => {
  it('creates tiers, categories and characters; the character shows its category and tier', async () => {
    const { tier, category, character } = await catalogue();
    expect(tier).toMatchObject({ color: '#aa33cc', dropWeight: 5, characterCount: 0 });
    expect(category).toMatchObject({ slug: `deep-sea-${seq}`, imageUrl: '', status: 'active' });
    expect(character).toMatchObject({ categoryName: category.name, tierName: tier.name, tierColor: '#aa33cc', mintedCount: 0, maxSupply: 3, attributes: [{ key: 'Power', value: '9' }] });
    const list = await call(f.s, 'GET', '/api/admin/card-characters', { token, query: { tierId: tier._id } });
    expect(list.body.result.items.map((c: { _id: string }) => c._id)).toEqual([character._id]);
    const tiers = await call(f.s, 'GET', '/api/admin/card-tiers', { token, query: { q: tier.name } });
    expect(tiers.body.result.items[0].characterCount).toBe(1);
  });

  it('counts each tier\'s and category\'s own characters (list and record)', async () => {
    const { tier, category } = await catalogue();
    for (const name of ['Second', 'Third']) {
      const more = await call(f.s, 'POST', '/api/admin/card-characters', { token, body: { name: `${name} ${seq}`, categoryId: category._id, tierId: tier._id, maxSupply: 5 } });
      expect(more.status).toBe(200);
    }
    const tiers = await call(f.s, 'GET', '/api/admin/card-tiers', { token, query: { q: tier.name } });
    expect(tiers.body.result.items[0].characterCount).toBe(3);
    expect((await call(f.s, 'GET', `/api/admin/card-tiers/${tier._id}`, { token })).body.result.characterCount).toBe(3);
    const categories = await call(f.s, 'GET', '/api/admin/card-categories', { token, query: { q: category.name } });
    expect(categories.body.result.items[0].characterCount).toBe(3);
    expect((await call(f.s, 'GET', `/api/admin/card-categories/${category._id}`, { token })).body.result.characterCount).toBe(3);
  });

  it('refuses bad input with the field and changes nothing', async () => {
    const { category } = await catalogue();
    const count = async () => Number((await f.db.select({ n: sql<number>`count(*)::int` }).from(cardTiers))[0]!.n);
    const before = await count();
    const bad = await call(f.s, 'POST', '/api/admin/card-tiers', { token, body: { name: 'X', color: 'red', dropWeight: -1 } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['color', 'dropWeight', 'name']);
    expect(await count()).toBe(before);
    const dupSlug = await call(f.s, 'POST', '/api/admin/card-categories', { token, body: { name: 'Another one', slug: category.slug } });
    expect(dupSlug.status).toBe(409);
    const badImage = await call(f.s, 'POST', '/api/admin/card-categories', { token, body: { name: 'Pictures', slug: 'pictures', imageUrl: 'https://evil.example/x.png' } });
    expect(badImage.status).toBe(400);
    expect(badImage.body.errors.imageUrl).toMatch(/Upload the image/);
    const noTier = await call(f.s, 'POST', '/api/admin/card-characters', { token, body: { name: 'Orphan', categoryId: category._id, tierId: '999999', maxSupply: 1 } });
    expect(noTier.status).toBe(400);
    expect(noTier.body.errors.tierId).toBeTruthy();
    const twice = await call(f.s, 'POST', '/api/admin/card-characters', {
      token,
      body: { name: 'Twice', categoryId: category._id, tierId: '999999', maxSupply: 1, attributes: [{ key: 'a', value: '1' }, { key: 'A', value: '2' }] },
    });
    expect(twice.status).toBe(400);
  });

  it('a tier or category in use is not deleted (409, deactivate instead), alone or in bulk; unused ones are', async () => {
    const { tier, category, character } = await catalogue();
    const delTier = await call(f.s, 'DELETE', `/api/admin/card-tiers/${tier._id}`, { token });
    expect(delTier.status).toBe(409);
    expect(delTier.body.message).toMatch(/used by 1 character: it cannot be deleted. Set its status to Inactive instead/);
    const bulk = await call(f.s, 'POST', '/api/admin/card-tiers/bulk', { token, body: { action: 'delete', ids: [tier._id] } });
    expect(bulk.status).toBe(409);
    const delCategory = await call(f.s, 'DELETE', `/api/admin/card-categories/${category._id}`, { token });
    expect(delCategory.status).toBe(409);
    expect(delCategory.body.message).toMatch(/category .* is used by 1 character/);
    expect((await call(f.s, 'GET', `/api/admin/card-tiers/${tier._id}`, { token })).status).toBe(200);
    // Deactivating is the way out.
    expect((await call(f.s, 'PATCH', `/api/admin/card-tiers/${tier._id}`, { token, body: { status: 'inactive' } })).body.result.status).toBe('inactive');
    // Once the character is gone, both can go.
    expect((await call(f.s, 'DELETE', `/api/admin/card-characters/${character._id}`, { token })).status).toBe(200);
    expect((await call(f.s, 'DELETE', `/api/admin/card-tiers/${tier._id}`, { token })).status).toBe(200);
    expect((await call(f.s, 'DELETE', `/api/admin/card-categories/${category._id}`, { token })).status).toBe(200);
  });

  it('a character with minted cards is not deleted, and its supply cannot go below what is minted', async () => {
    const { character } = await catalogue(5);
    const user = await makeUser(f);
    await f.db.transaction((tx) => grantCard(tx, { userId: user.id, characterId: Number(character._id), source: 'reward', sourceId: 'r-1' }));
    await f.db.transaction((tx) => grantCard(tx, { userId: user.id, characterId: Number(character._id), source: 'admin_grant' }));
    const del = await call(f.s, 'DELETE', `/api/admin/card-characters/${character._id}`, { token });
    expect(del.status).toBe(409);
    expect(del.body.message).toMatch(/2 minted cards: it cannot be deleted/);
    const lower = await call(f.s, 'PATCH', `/api/admin/card-characters/${character._id}`, { token, body: { maxSupply: 1 } });
    expect(lower.status).toBe(400);
    expect(lower.body.errors.maxSupply).toMatch(/At least 2/);
    // The minted count is not an input: a value sent for it is dropped.
    await call(f.s, 'PATCH', `/api/admin/card-characters/${character._id}`, { token, body: { mintedCount: 0, description: 'Sea monster' } });
    const read = await call(f.s, 'GET', `/api/admin/card-characters/${character._id}`, { token });
    expect(read.body.result).toMatchObject({ mintedCount: 2, maxSupply: 5 });
    // The user's Cards tab: the owned cards, newest first.
    const owned = await call(f.s, 'GET', '/api/admin/user-cards', { token, query: { userId: String(user.id) } });
    expect(owned.body.result.items.map((c: { source: string }) => c.source)).toEqual(['admin_grant', 'reward']);
    expect(owned.body.result.items[1]).toMatchObject({ characterName: character.name, username: user.username, sourceId: 'r-1' });
  });

  it('mints up to the max supply and no further; an inactive character is not minted', async () => {
    const { character } = await catalogue(2);
    const id = Number(character._id);
    expect(await mintCharacter(f.db, id)).toEqual({ mintedCount: 1, maxSupply: 2 });
    expect(await mintCharacter(f.db, id)).toEqual({ mintedCount: 2, maxSupply: 2 });
    expect(await mintCharacter(f.db, id)).toBeNull();
    const user = await makeUser(f);
    await expect(f.db.transaction((tx) => grantCard(tx, { userId: user.id, characterId: id, source: 'pack_opening', sourceId: 7 }))).rejects.toMatchObject({ status: 409 });
    expect(await f.db.select().from(userCards).where(eq(userCards.characterId, id))).toEqual([]);
    const other = await catalogue(2);
    await call(f.s, 'PATCH', `/api/admin/card-characters/${other.character._id}`, { token, body: { status: 'inactive' } });
    expect(await mintCharacter(f.db, Number(other.character._id))).toBeNull();
  });

  it('concurrent mints never pass the max supply', async () => {
    const { character } = await catalogue(7);
    const id = Number(character._id);
    const users = await Promise.all(Array.from({ length: 4 }, () => makeUser(f)));
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        f.db.transaction(async (tx) => {
          const granted = await grantCard(tx, { userId: users[i % users.length]!.id, characterId: id, source: 'pack_opening', sourceId: `open-${i}` });
          // Hold the transaction open a moment so the others pile up on the row.
          await tx.execute(sql`select pg_sleep(0.01)`);
          return granted;
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(7);
    expect(refused.every((r) => (r.reason as { status?: number }).status === 409)).toBe(true);
    const [row] = await f.db.select().from(cardCharacters).where(eq(cardCharacters.id, id));
    expect(row).toMatchObject({ mintedCount: 7, maxSupply: 7 });
    const [owned] = await f.db.select({ n: sql<number>`count(*)::int` }).from(userCards).where(eq(userCards.characterId, id));
    expect(Number(owned!.n)).toBe(7);
    expect(new Set(ok.map((r) => (r as PromiseFulfilledResult<{ mintedCount: number }>).value.mintedCount))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7]));
  });

  it('rights: view-only reads, cannot write; another card restriction is refused', async () => {
    const { tier } = await catalogue();
    const viewer = await makeSubAdmin(f.s, [{ name: 'CardTier', canView: true, canEdit: false }], token);
    expect((await call(f.s, 'GET', '/api/admin/card-tiers', { token: viewer.token })).status).toBe(200);
    expect((await call(f.s, 'PATCH', `/api/admin/card-tiers/${tier._id}`, { token: viewer.token, body: { dropWeight: 1 } })).status).toBe(403);
    expect((await call(f.s, 'GET', '/api/admin/card-characters', { token: viewer.token })).status).toBe(403);
    expect((await call(f.s, 'GET', '/api/admin/user-cards', { token: viewer.token })).status).toBe(403);
  });
});

describe('reward card CMS', () => {
  it('keeps the blocks of the public page: sanitised rich text, stored images only, in order', async () => {
    const created = await call(f.s, 'POST', '/api/admin/reward-card-cms', {
      token,
      body: { title: 'How to earn', body: '<p onclick="steal()">Trade <strong>more</strong><script>alert(1)</script><img src=x onerror=alert(2)></p>', sortOrder: 2 },
    });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ title: 'How to earn', body: '<p>Trade <strong>more</strong></p>', imageUrl: '', status: 'active' });
    const empty = await call(f.s, 'PATCH', `/api/admin/reward-card-cms/${created.body.result._id}`, { token, body: { body: '<p><script>x</script></p>' } });
    expect(empty.body.result.body).toBe('');
    const badImage = await call(f.s, 'POST', '/api/admin/reward-card-cms', { token, body: { title: 'Hero', imageUrl: 'javascript:alert(1)' } });
    expect(badImage.status).toBe(400);
    expect(badImage.body.errors.imageUrl).toBeTruthy();
    await call(f.s, 'POST', '/api/admin/reward-card-cms', { token, body: { title: 'Welcome', sortOrder: 1 } });
    const list = await call(f.s, 'GET', '/api/admin/reward-card-cms', { token, query: { status: 'active' } });
    expect(list.body.result.items.map((b: { title: string }) => b.title).slice(0, 2)).toEqual(['Welcome', 'How to earn']);
    const outsider = await makeSubAdmin(f.s, [{ name: 'CMS Pages', canView: true, canEdit: true }], token);
    expect((await call(f.s, 'GET', '/api/admin/reward-card-cms', { token: outsider.token })).status).toBe(403);
    const viewer = await makeSubAdmin(f.s, [{ name: 'Crypto Reward Card CMS', canView: true, canEdit: false }], token);
    expect((await call(f.s, 'GET', '/api/admin/reward-card-cms', { token: viewer.token })).status).toBe(200);
    expect((await call(f.s, 'DELETE', `/api/admin/reward-card-cms/${created.body.result._id}`, { token: viewer.token })).status).toBe(403);
  });
});
