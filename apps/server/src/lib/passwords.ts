import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';

/** argon2id at the ASVS floor or above (m = 19 MiB, t = 2, p = 1). */
export const ARGON2_PARAMS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash made with weaker parameters than today's is rehashed at the next successful login. */
export function needsRehash(stored: string): boolean {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
  if (!m) return true;
  return Number(m[1]) < ARGON2_PARAMS.memoryCost || Number(m[2]) < ARGON2_PARAMS.timeCost || Number(m[3]) !== ARGON2_PARAMS.parallelism;
}

/** Verifying against this when the email is unknown keeps the answer's timing the same. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`not-a-real-password-${Math.random()}`);
  return dummyHash;
}

/**
 * Strength by zxcvbn (its breached-password list of ~30,000 entries, English words and names,
 * keyboard patterns, dates, l33t and repeats): a password must be "safely unguessable"
 * (score ≥ 3, about 10^8 guesses), so `football`, `Password1!` and `P@ssw0rd1` are refused while a
 * passphrase passes. The factory takes ~0.1 s to build, so it is built on first use.
 */
let strength: ZxcvbnFactory | undefined;
function checker(): ZxcvbnFactory {
  strength ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
  });
  return strength;
}

export const MIN_PASSWORD_SCORE = 3;

/**
 * Why a password is too weak, or null when it is strong enough. `context` holds what an attacker
 * would try first for this account (name, email, site name).
 */
export function passwordWeakness(password: string, context: string[] = []): string | null {
  const inputs = context.flatMap((c) => [c, ...c.toLowerCase().split(/[^a-z0-9]+/)]).filter((c) => c.length >= 3);
  const result = checker().check(password, [...inputs, 'pitboss']);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const sentence = (t: string) => t.trim().replace(/\.*$/, '.');
  const reason = sentence(result.feedback.warning || 'This password is easy to guess');
  const hint = result.feedback.suggestions[0];
  return hint ? `${reason} ${sentence(hint)}` : reason;
}
