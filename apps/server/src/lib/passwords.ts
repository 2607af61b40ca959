import { hash, verify } from '@node-rs/argon2';

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
  dummyHash ??= hashPassword('not-a-real-password-' + Math.random());
  return dummyHash;
}

// The most common passwords of public breach corpora (top entries that pass the length rule).
const COMMON = new Set(
  `password 12345678 123456789 1234567890 qwertyuiop password1 password123 iloveyou1 11111111 00000000 abcd1234 qwerty123
   1q2w3e4r 1qaz2wsx sunshine1 princess1 football1 baseball1 superman1 trustno1! welcome1 welcome123 admin123 administrator
   letmein1 letmein123 changeme changeme123 passw0rd p@ssw0rd p@ssword password! qwertyui asdfghjk zxcvbnm1 monkey123 dragon123
   master123 shadow123 michael1 jennifer1 1234qwer qwer1234 q1w2e3r4 q1w2e3r4t5 987654321 123123123 12341234 11223344 88888888
   99999999 12121212 iloveyou loveyou1 starwars starwars1 whatever1 computer1 internet1 freedom1 charlie1 pokemon1 access123
   secret123 samsung1 default1 adminadmin rootroot pitboss1 pitboss123 password2 password12 password1234 123456789a a123456789`
    .split(/\s+/)
    .filter(Boolean),
);

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}
