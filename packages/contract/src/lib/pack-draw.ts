/**
 * The booster-pack draw: which cards a pack opening gives, computed from a committed server seed, the
 * user's client seed and a nonce. Pure and deterministic: the server draws with it and the history's
 * Verify recomputes with it, and anyone holding the revealed server seed can recompute it by hand
 * (docs/cards-and-packs.md, "Booster packs › Provably fair openings").
 *
 * For card i (0-based) of an opening:
 *
 *   h = HMAC-SHA256(key = the server seed's 32 bytes, message = UTF-8 of `${clientSeed}:${nonce}:${i}`)
 *
 * - **Tier**: `roll = uint32_be(h[0..4]) mod 10000` (0..9999). The odds are basis points per tier,
 *   listed from the most common tier to the rarest (the tiers' order) and summing to 10000; the card's
 *   tier is the first one whose running total of basis points exceeds `roll`.
 * - **Guaranteed minimum tier** (optional): when, after all the cards are drawn, none is of the minimum
 *   tier or a rarer one, the LAST card's tier is drawn again among the tiers at or above the minimum:
 *   `roll = uint32_be(h[8..12]) mod S`, S the sum of their basis points, same running-total rule (when
 *   S is 0 it becomes the minimum tier itself).
 * - **Character**: the candidates of the card's tier are the tier's active characters still below
 *   their max supply when the opening started, by id ascending (numeric order), each once (uniform
 *   among characters); a character minted out by an earlier card of the same opening leaves the list.
 *   `index = uint32_be(h[4..8]) mod (number of candidates)`. A tier with no candidate left gives the
 *   nearest tier that has one: the next more common one first, then the next rarer one, and so on.
 *   Characters are drawn in card order; the guaranteed-tier redraw of the last card happens before its
 *   character is drawn.
 *
 * `mod` of a 32-bit value: the bias is below 2^-18 for 10000 and for lists of up to a few thousand
 * characters, and it is the same for everyone who recomputes.
 */

export const ODDS_TOTAL_BPS = 10_000;

export interface DrawTier {
  tierId: string;
  /** Basis points of this tier (0..10000); the list sums to 10000. */
  bps: number;
}

/** A character that can still be minted when the opening starts: `remaining` = max supply − minted (capped by the caller at the pack's size is fine). */
export interface DrawCharacter {
  characterId: string;
  tierId: string;
  remaining: number;
}

export interface DrawInput {
  /** 64 hex digits (32 bytes). */
  serverSeed: string;
  clientSeed: string;
  nonce: number;
  cards: number;
  /** From the most common tier to the rarest. */
  odds: readonly DrawTier[];
  /** The guaranteed minimum tier's id, or null. It must be one of `odds`. */
  guaranteedTierId: string | null;
  /** The pool at the start of the opening (any order; the draw sorts by id). */
  pool: readonly DrawCharacter[];
}

export interface DrawnCard {
  index: number;
  /** The tier the odds gave (after the guarantee) and the tier the character came from (another when that one was empty). */
  rolledTierId: string;
  tierId: string;
  characterId: string;
  /** The 32-bit values read from the HMAC: tier roll (mod 10000), character index, and the guarantee's roll when used. */
  tierRoll: number;
  characterRoll: number;
  guaranteeRoll: number | null;
}

/** HMAC-SHA256 of a UTF-8 message under a key, as bytes (node:crypto on the server, any implementation in a verifier). */
export type HmacSha256 = (key: Uint8Array, message: string) => Uint8Array;

export class DrawError extends Error {}

const u32 = (h: Uint8Array, at: number) => ((h[at]! << 24) >>> 0) + (h[at + 1]! << 16) + (h[at + 2]! << 8) + h[at + 3]!;

export function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) throw new DrawError('The server seed is not hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export const bytesToHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** What is wrong with a set of odds (basis points per tier), or null. */
export function oddsProblem(odds: readonly DrawTier[]): string | null {
  if (odds.length === 0) return 'Give the odds of at least one tier';
  const seen = new Set<string>();
  let total = 0;
  for (const o of odds) {
    if (!Number.isInteger(o.bps) || o.bps < 0 || o.bps > ODDS_TOTAL_BPS) return 'Each tier’s odds are 0.00–100.00 %';
    if (seen.has(o.tierId)) return 'A tier is listed twice';
    seen.add(o.tierId);
    total += o.bps;
  }
  if (total !== ODDS_TOTAL_BPS) return `The odds sum to ${formatBps(total)} %, not 100.00 %`;
  return null;
}

/** Basis points as a percentage with two decimals (`1234` → `12.34`). */
export const formatBps = (bps: number) => `${Math.trunc(bps / 100)}.${String(Math.abs(bps) % 100).padStart(2, '0')}`;

/** A percentage with at most two decimals (`12.5`, `"12.34"`) as basis points, or null when it has more precision or is out of range. */
export function percentToBps(v: string | number): number | null {
  const s = typeof v === 'number' ? String(v) : v.trim();
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const bps = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bps <= ODDS_TOTAL_BPS ? bps : null;
}

function pickTier(odds: readonly DrawTier[], roll: number): number {
  let acc = 0;
  for (let t = 0; t < odds.length; t++) {
    acc += odds[t]!.bps;
    if (roll < acc) return t;
  }
  return odds.length - 1;
}

/** Draws the cards of one opening (see the module comment for the exact mapping). */
export function drawPack(input: DrawInput, hmac: HmacSha256): DrawnCard[] {
  const problem = oddsProblem(input.odds);
  if (problem) throw new DrawError(problem);
  if (!Number.isInteger(input.cards) || input.cards < 1) throw new DrawError('A pack has at least one card');
  if (!Number.isSafeInteger(input.nonce) || input.nonce < 0) throw new DrawError('The nonce is a whole number');
  const key = hexToBytes(input.serverSeed);
  const tiers = input.odds.map((o) => o.tierId);
  const minTier = input.guaranteedTierId === null ? -1 : tiers.indexOf(input.guaranteedTierId);
  if (input.guaranteedTierId !== null && minTier < 0) throw new DrawError('The guaranteed tier has no odds');

  const hashes: Uint8Array[] = [];
  const rolled: number[] = [];
  for (let i = 0; i < input.cards; i++) {
    const h = hmac(key, `${input.clientSeed}:${input.nonce}:${i}`);
    if (h.length < 12) throw new DrawError('HMAC-SHA256 gives 32 bytes');
    hashes.push(h);
    rolled.push(pickTier(input.odds, u32(h, 0) % ODDS_TOTAL_BPS));
  }
  let guaranteeRoll: number | null = null;
  if (minTier >= 0 && !rolled.some((t) => t >= minTier)) {
    const last = input.cards - 1;
    const eligible = input.odds.slice(minTier);
    const sum = eligible.reduce((s, o) => s + o.bps, 0);
    if (sum === 0) rolled[last] = minTier;
    else {
      guaranteeRoll = u32(hashes[last]!, 8) % sum;
      let acc = 0;
      let pick = eligible.length - 1;
      for (let t = 0; t < eligible.length; t++) {
        acc += eligible[t]!.bps;
        if (guaranteeRoll < acc) {
          pick = t;
          break;
        }
      }
      rolled[last] = minTier + pick;
    }
  }

  // Candidates per tier, by id ascending (numeric ids compare as numbers), each with its supply left.
  const byId = (a: DrawCharacter, b: DrawCharacter) =>
    a.characterId.length !== b.characterId.length ? a.characterId.length - b.characterId.length : a.characterId < b.characterId ? -1 : a.characterId > b.characterId ? 1 : 0;
  const pool = new Map<string, { characterId: string; remaining: number }[]>(tiers.map((t) => [t, []]));
  for (const c of [...input.pool].sort(byId)) {
    if (c.remaining > 0) pool.get(c.tierId)?.push({ characterId: c.characterId, remaining: c.remaining });
  }

  const out: DrawnCard[] = [];
  for (let i = 0; i < input.cards; i++) {
    const h = hashes[i]!;
    const want = rolled[i]!;
    // The rolled tier, else the nearest with a candidate: more common first, then rarer.
    let from = -1;
    for (let d = 0; d < tiers.length && from < 0; d++) {
      if (want - d >= 0 && pool.get(tiers[want - d]!)!.length > 0) from = want - d;
      else if (d > 0 && want + d < tiers.length && pool.get(tiers[want + d]!)!.length > 0) from = want + d;
    }
    if (from < 0) throw new DrawError('No character can be minted: every one is at its max supply');
    const candidates = pool.get(tiers[from]!)!;
    const characterRoll = u32(h, 4);
    const k = characterRoll % candidates.length;
    const c = candidates[k]!;
    c.remaining -= 1;
    if (c.remaining === 0) candidates.splice(k, 1);
    out.push({
      index: i, rolledTierId: tiers[want]!, tierId: tiers[from]!, characterId: c.characterId,
      tierRoll: u32(h, 0) % ODDS_TOTAL_BPS, characterRoll, guaranteeRoll: i === input.cards - 1 ? guaranteeRoll : null,
    });
  }
  return out;
}
