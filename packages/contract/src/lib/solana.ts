const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Map([...ALPHABET].map((c, i) => [c, i]));

/** Bytes of a base58 string, or null when a character is outside the alphabet. */
export function base58Decode(value: string): Uint8Array | null {
  let n = 0n;
  for (const ch of value) {
    const d = INDEX.get(ch);
    if (d === undefined) return null;
    n = n * 58n + BigInt(d);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.push(Number(n & 0xffn));
    n >>= 8n;
  }
  for (const ch of value) {
    if (ch !== '1') break;
    bytes.push(0);
  }
  return Uint8Array.from(bytes.reverse());
}

/** A Solana public key: base58 that decodes to exactly 32 bytes. */
export function isSolanaAddress(value: string): boolean {
  if (value.length < 32 || value.length > 44) return false;
  const bytes = base58Decode(value);
  return bytes !== null && bytes.length === 32;
}
