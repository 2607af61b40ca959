import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import sharp from 'sharp';
import type { Db } from '../db/client.js';
import { appMeta, cardCategories, cardCharacters, cardTiers, users } from '../db/schema.js';
import { grantCard } from '../modules/cards/service.js';
import { storeImage } from '../modules/uploads/images.js';
import type { ImageStore } from '../modules/uploads/storage.js';
import { Random } from './money.js';

const META_KEY = 'demo_cards_seeded_at';

const TIERS = [
  { name: 'Common', color: '#868e96', dropWeight: 600, supply: [2_000, 5_000] },
  { name: 'Rare', color: '#1c7ed6', dropWeight: 250, supply: [500, 1_500] },
  { name: 'Epic', color: '#7048e8', dropWeight: 120, supply: [100, 400] },
  { name: 'Legendary', color: '#f59f00', dropWeight: 30, supply: [10, 50] },
] as const;

const CATEGORIES = [
  { name: 'Deep Sea', slug: 'deep-sea', hue: 200, words: ['Kraken', 'Angler', 'Leviathan', 'Nautilus', 'Siren', 'Manta', 'Coral Golem', 'Abyss Eel', 'Tide Warden', 'Pearl Oracle', 'Hydra', 'Reef Stalker', 'Sea Wyrm', 'Jelly Drifter', 'Brine Knight', 'Depth Charger', 'Foam Sprite'] },
  { name: 'Sky Realm', slug: 'sky-realm', hue: 45, words: ['Griffin', 'Storm Roc', 'Cloud Titan', 'Zephyr', 'Thunderbird', 'Sky Whale', 'Wind Dancer', 'Aurora Drake', 'Gale Falcon', 'Nimbus', 'Sun Seraph', 'Comet Rider', 'Mist Owl', 'Tempest', 'Feather Mage', 'Halo Sentinel', 'Skyship Captain'] },
  { name: 'Iron Forge', slug: 'iron-forge', hue: 15, words: ['Anvil Golem', 'Steam Knight', 'Gear Smith', 'Cinder Dwarf', 'Rivet Hound', 'Bellows Beast', 'Furnace Lord', 'Slag Brute', 'Cog Tinkerer', 'Iron Maiden', 'Bolt Thrower', 'Magma Forger', 'Chain Warden', 'Copper Sprite', 'Hammer Saint', 'Ore Crawler', 'Piston Titan'] },
  { name: 'Verdant Grove', slug: 'verdant-grove', hue: 120, words: ['Treant', 'Moss Druid', 'Thorn Witch', 'Fern Fox', 'Bloom Fairy', 'Root Serpent', 'Oak Guardian', 'Vine Lasher', 'Spore Shaman', 'Willow Wisp', 'Bark Bear', 'Petal Archer', 'Grove Stag', 'Lichen Troll', 'Seedling', 'Canopy Lynx', 'Mushroom King'] },
  { name: 'Ember Wastes', slug: 'ember-wastes', hue: 0, words: ['Phoenix', 'Ash Walker', 'Dune Scorpion', 'Flame Djinn', 'Cinder Wolf', 'Sand Wyrm', 'Lava Hound', 'Sun Scarab', 'Obsidian Idol', 'Pyre Monk', 'Scorch Drake', 'Heat Mirage', 'Basalt Giant', 'Ember Imp', 'Blaze Rider', 'Smoke Shade'] },
  { name: 'Neon City', slug: 'neon-city', hue: 300, words: ['Cyber Ronin', 'Glitch Cat', 'Holo Idol', 'Data Wraith', 'Chrome Jackal', 'Laser Monk', 'Pixel Golem', 'Synth Siren', 'Grid Runner', 'Neon Oni', 'Byte Beetle', 'Signal Ghost', 'Volt Viper', 'Drone Queen', 'Arc Samurai', 'Static Sprite'] },
] as const;

const esc = (s: string) => s.replace(/[^#0-9a-z ().,%-]/gi, '');

/** A card's art as SVG: a gradient in the category's hue, a tier-coloured frame, a creature of simple shapes. No text (no fonts needed). */
function cardSvg(r: Random, hue: number, frame: string, w = 360, h = 504): string {
  const h2 = (hue + r.int(20, 60)) % 360;
  const bodyHue = (hue + r.int(120, 240)) % 360;
  const cx = w / 2;
  const cy = h * 0.52;
  const size = r.int(70, 110);
  const sides = r.int(3, 8);
  const rot = r.next() * Math.PI;
  const points = Array.from({ length: sides }, (_, i) => {
    const a = rot + (i * 2 * Math.PI) / sides;
    return `${(cx + Math.cos(a) * size * 1.4).toFixed(1)},${(cy + Math.sin(a) * size * 1.4).toFixed(1)}`;
  }).join(' ');
  const eye = r.int(8, 16);
  const spread = r.int(22, 40);
  const stars = Array.from({ length: 14 }, () => `<circle cx="${r.int(10, w - 10)}" cy="${r.int(10, h - 10)}" r="${r.int(1, 3)}" fill="white" fill-opacity="${r.between(0.2, 0.7).toFixed(2)}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},65%,35%)"/><stop offset="1" stop-color="hsl(${h2},70%,18%)"/></linearGradient></defs>
<rect width="${w}" height="${h}" rx="22" fill="url(#g)"/>${stars}
<polygon points="${points}" fill="hsl(${bodyHue},60%,${r.int(45, 65)}%)" fill-opacity="0.35"/>
<ellipse cx="${cx}" cy="${cy}" rx="${size}" ry="${size * r.between(0.8, 1.2)}" fill="hsl(${bodyHue},55%,${r.int(45, 60)}%)"/>
<circle cx="${cx - spread}" cy="${cy - size * 0.2}" r="${eye}" fill="white"/><circle cx="${cx + spread}" cy="${cy - size * 0.2}" r="${eye}" fill="white"/>
<circle cx="${cx - spread}" cy="${cy - size * 0.2}" r="${eye / 2}" fill="#111"/><circle cx="${cx + spread}" cy="${cy - size * 0.2}" r="${eye / 2}" fill="#111"/>
<path d="M ${cx - spread} ${cy + size * 0.35} Q ${cx} ${cy + size * r.between(0.45, 0.75)} ${cx + spread} ${cy + size * 0.35}" stroke="#111" stroke-width="5" fill="none" stroke-linecap="round"/>
<rect x="9" y="9" width="${w - 18}" height="${h - 18}" rx="16" fill="none" stroke="${esc(frame)}" stroke-width="12"/>
<rect x="30" y="${h - 64}" width="${w - 60}" height="34" rx="8" fill="${esc(frame)}" fill-opacity="0.85"/>
</svg>`;
}

/** Runs `fn` over `items`, a few at a time (sharp works on libuv's thread pool). */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

/**
 * The card catalogue of the demo: four tiers, six categories with art, about a hundred characters
 * with art drawn here (SVG rendered by sharp, then through the upload pipeline into the image
 * store: no network), and reward cards owned by some players (minted through `grantCard`). Once per
 * database (app_meta `demo_cards_seeded_at`). Without an image store the art is left out.
 */
export async function seedCards(db: Db, log: Pick<Logger, 'info'>, images: ImageStore | undefined): Promise<boolean> {
  const [done] = await db.select().from(appMeta).where(eq(appMeta.key, META_KEY));
  if (done) return false;
  const [existing] = await db.select({ n: sql<number>`count(*)::int` }).from(cardTiers);
  if (existing!.n > 0) return false;
  const started = Date.now();
  const r = new Random(20_261_126);

  const plan = CATEGORIES.flatMap((c, ci) =>
    c.words.map((word, wi) => {
      // Roughly 45 % common, 30 % rare, 17 % epic, 8 % legendary.
      const roll = r.next();
      const tier = roll < 0.45 ? 0 : roll < 0.75 ? 1 : roll < 0.92 ? 2 : 3;
      return { ci, wi, word, tier };
    }),
  );
  const art = async (svg: string) => (images ? (await storeImage(images, await sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer())).url : '');
  const categoryArt = await mapLimit(CATEGORIES, 3, (c) => art(cardSvg(new Random(c.hue + 7), c.hue, '#e9ecef', 480, 320)));
  const characterArt = await mapLimit(plan, 4, (p) => art(cardSvg(new Random(p.ci * 100 + p.wi + 1), CATEGORIES[p.ci]!.hue, TIERS[p.tier]!.color)));

  const counts = await db.transaction(async (tx) => {
    const tierRows = await tx
      .insert(cardTiers)
      .values(TIERS.map((t, i) => ({ name: t.name, color: t.color, dropWeight: t.dropWeight, sortOrder: i + 1 })))
      .returning({ id: cardTiers.id });
    const categoryRows = await tx
      .insert(cardCategories)
      .values(CATEGORIES.map((c, i) => ({ name: c.name, slug: c.slug, imageUrl: categoryArt[i]!, status: i === CATEGORIES.length - 1 ? ('inactive' as const) : ('active' as const) })))
      .returning({ id: cardCategories.id });
    const characterRows = await tx
      .insert(cardCharacters)
      .values(
        plan.map((p, i) => {
          const t = TIERS[p.tier]!;
          return {
            name: p.word,
            categoryId: categoryRows[p.ci]!.id,
            tierId: tierRows[p.tier]!.id,
            imageUrl: characterArt[i]!,
            description: `${p.word} of the ${CATEGORIES[p.ci]!.name}. ${t.name} card.`,
            attributes: [
              { key: 'Power', value: String(r.int(1, 10) + p.tier * 2) },
              { key: 'Speed', value: String(r.int(1, 12)) },
              { key: 'Element', value: CATEGORIES[p.ci]!.name.split(' ')[0]! },
            ],
            maxSupply: r.int(t.supply[0], t.supply[1]),
          };
        }),
      )
      .returning({ id: cardCharacters.id });
    // Reward cards for some players: minted like the draw will mint them.
    const players = await tx.select({ id: users.id }).from(users).orderBy(users.id).limit(60);
    let owned = 0;
    for (const [i, player] of players.entries()) {
      const n = r.int(0, 4);
      for (let k = 0; k < n; k++) {
        const pick = r.int(0, characterRows.length - 1);
        await grantCard(tx, { userId: player.id, characterId: characterRows[pick]!.id, source: 'reward', sourceId: `welcome-${i + 1}` });
        owned++;
      }
    }
    await tx.insert(appMeta).values({ key: META_KEY, value: new Date().toISOString() });
    return { tiers: tierRows.length, categories: categoryRows.length, characters: characterRows.length, ownedCards: owned };
  });
  log.info({ ...counts, images: images ? characterArt.length + categoryArt.length : 0, ms: Date.now() - started }, 'demo cards seeded');
  return true;
}
