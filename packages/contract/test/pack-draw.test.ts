import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawPack, formatBps, oddsProblem, percentToBps, type DrawCharacter, type DrawInput, type HmacSha256 } from '../src/index.js';

/** The booster-pack draw (packages/contract/src/lib/pack-draw.ts): odds, the documented byte mapping, the guarantee, supply. */
const hmac: HmacSha256 = (key, message) => createHmac('sha256', key).update(message, 'utf8').digest();
const seedOf = (n: number) => createHash('sha256').update(`seed-${n}`).digest('hex');

const ODDS = [
  { tierId: '1', bps: 6000 },
  { tierId: '2', bps: 2500 },
  { tierId: '3', bps: 1200 },
  { tierId: '4', bps: 300 },
];
const pool = (perTier = 5, remaining = 1_000_000): DrawCharacter[] =>
  ODDS.flatMap((o, t) => Array.from({ length: perTier }, (_, k) => ({ characterId: String(100 + t * perTier + k), tierId: o.tierId, remaining })));
const base = (over: Partial<DrawInput> = {}): DrawInput => ({ serverSeed: seedOf(1), clientSeed: 'player-seed', nonce: 0, cards: 5, odds: ODDS, guaranteedTierId: null, pool: pool(), ...over });

describe('pack draw', () => {
  it('maps bytes as documented: tier from bytes 0–3 mod 10000, character from bytes 4–7 mod the candidates', () => {
    const input = base({ cards: 3 });
    const cards = drawPack(input, hmac);
    cards.forEach((c, i) => {
      const h = Buffer.from(hmac(Buffer.from(input.serverSeed, 'hex'), `${input.clientSeed}:${input.nonce}:${i}`));
      const roll = h.readUInt32BE(0) % 10_000;
      const tier = roll < 6000 ? '1' : roll < 8500 ? '2' : roll < 9700 ? '3' : '4';
      expect(c.tierRoll).toBe(roll);
      expect(c.tierId).toBe(tier);
      const candidates = input.pool.filter((p) => p.tierId === tier).map((p) => p.characterId).sort((a, b) => Number(a) - Number(b));
      expect(c.characterId).toBe(candidates[h.readUInt32BE(4) % candidates.length]);
    });
  });

  it('is deterministic, and another nonce, client seed or server seed gives another draw', () => {
    const a = drawPack(base({ cards: 10 }), hmac);
    expect(drawPack(base({ cards: 10 }), hmac)).toEqual(a);
    expect(drawPack(base({ cards: 10, nonce: 1 }), hmac)).not.toEqual(a);
    expect(drawPack(base({ cards: 10, clientSeed: 'other' }), hmac)).not.toEqual(a);
    const flipped = `${(Number.parseInt(seedOf(1).slice(0, 2), 16) ^ 1).toString(16).padStart(2, '0')}${seedOf(1).slice(2)}`;
    expect(drawPack(base({ cards: 10, serverSeed: flipped }), hmac)).not.toEqual(a);
  });

  it('over many seeds, the tier frequencies match the odds (property, within 5 standard deviations)', () => {
    fc.assert(
      fc.property(
        // Random odds over four tiers that sum to 10000 bps.
        fc.tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 })).map(([a, b, c]) => {
          const cuts = [a, b, c].sort((x, y) => x - y);
          return [cuts[0]!, cuts[1]! - cuts[0]!, cuts[2]! - cuts[1]!, 10_000 - cuts[2]!].map((bps, t) => ({ tierId: String(t + 1), bps }));
        }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (odds, seedNo) => {
          const n = 3200;
          const counts = new Map<string, number>();
          for (let k = 0; k < n / 4; k++) {
            const cards = drawPack(base({ odds, serverSeed: seedOf(seedNo + k), nonce: k, cards: 4 }), hmac);
            for (const c of cards) counts.set(c.rolledTierId, (counts.get(c.rolledTierId) ?? 0) + 1);
          }
          for (const o of odds) {
            const p = o.bps / 10_000;
            const got = counts.get(o.tierId) ?? 0;
            if (p === 0) expect(got).toBe(0);
            else expect(Math.abs(got - n * p)).toBeLessThanOrEqual(5 * Math.sqrt(n * p * (1 - p)) + 1);
          }
        },
      ),
      { numRuns: 20 },
    );
  }, 60_000);

  it('guarantees the minimum tier on the last card when no card reached it, and changes nothing otherwise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 8 }), (seedNo, cards) => {
        const plain = drawPack(base({ serverSeed: seedOf(seedNo), cards }), hmac);
        const guaranteed = drawPack(base({ serverSeed: seedOf(seedNo), cards, guaranteedTierId: '3' }), hmac);
        const reached = plain.some((c) => Number(c.rolledTierId) >= 3);
        if (reached) expect(guaranteed).toEqual(plain);
        else {
          expect(guaranteed.slice(0, -1)).toEqual(plain.slice(0, -1));
          expect(Number(guaranteed.at(-1)!.rolledTierId)).toBeGreaterThanOrEqual(3);
          expect(guaranteed.at(-1)!.guaranteeRoll).not.toBeNull();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never passes a character’s supply: a minted-out character leaves the draw, an empty tier falls to the nearest', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 20, maxLength: 20 }), (seedNo, left) => {
        const p = pool(5).map((c, k) => ({ ...c, remaining: left[k]! }));
        const total = p.reduce((s, c) => s + c.remaining, 0);
        const cards = Math.min(8, total);
        if (cards === 0) {
          expect(() => drawPack(base({ serverSeed: seedOf(seedNo), cards: 1, pool: p }), hmac)).toThrow(/max supply/);
          return;
        }
        const drawn = drawPack(base({ serverSeed: seedOf(seedNo), cards, pool: p }), hmac);
        const used = new Map<string, number>();
        for (const c of drawn) used.set(c.characterId, (used.get(c.characterId) ?? 0) + 1);
        for (const c of p) expect(used.get(c.characterId) ?? 0).toBeLessThanOrEqual(c.remaining);
        for (const c of drawn) expect(p.find((x) => x.characterId === c.characterId)!.tierId).toBe(c.tierId);
      }),
      { numRuns: 300 },
    );
  });

  it('checks odds and converts percentages with two decimals to basis points', () => {
    expect(oddsProblem(ODDS)).toBeNull();
    expect(oddsProblem([{ tierId: '1', bps: 9999 }])).toMatch(/99\.99 %/);
    expect(oddsProblem([{ tierId: '1', bps: 5000 }, { tierId: '1', bps: 5000 }])).toMatch(/twice/);
    expect(percentToBps('12.34')).toBe(1234);
    expect(percentToBps('12.5')).toBe(1250);
    expect(percentToBps(100)).toBe(10_000);
    expect(percentToBps('12.345')).toBeNull();
    expect(percentToBps('100.01')).toBeNull();
    expect(formatBps(1234)).toBe('12.34');
    expect(formatBps(5)).toBe('0.05');
  });
});
