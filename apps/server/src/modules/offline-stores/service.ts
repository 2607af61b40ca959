import { createHash, randomInt } from 'node:crypto';
import { formatStoreCode, normalizeStoreCode, STORE_CODE_ALPHABET, STORE_CODE_LENGTH } from '@pitboss/contract';
import { eq, sql } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { conflict, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { slugify } from '../../lib/slug.js';
import type { ActionAnswer, Row } from '../../resources/define.js';
import { takePack } from '../booster-packs/service.js';
import { boosterPacks, packPurchases, type PackPurchaseRow } from '../booster-packs/table.js';
import { FieldErrors, fieldError } from '../ledger/input.js';
import { loadUser } from '../users/service.js';
import { offlineStores, storeAllocations, storeCodes } from './table.js';

export const codeHash = (normalized: string) => createHash('sha256').update(normalized, 'utf8').digest('hex');

/** A fresh code: STORE_CODE_LENGTH characters of the alphabet, each from the CSPRNG (100 random bits). */
export function newStoreCode(): string {
  let s = '';
  for (let i = 0; i < STORE_CODE_LENGTH; i++) s += STORE_CODE_ALPHABET[randomInt(STORE_CODE_ALPHABET.length)];
  return s;
}

/** Keeps `delta` more packs (or fewer, when negative) of the pack for stores: one conditional UPDATE, never past the supply. */
async function reserve(tx: DbOrTx, packId: number, delta: number): Promise<void> {
  if (delta === 0) return;
  const rows = await queryRows<{ id: string | number }>(tx, sql`
    update booster_packs set reserved = reserved + ${delta}, updated_at = now()
    where id = ${packId} and reserved + ${delta} >= 0 and sold + reserved + ${delta} <= supply returning id`);
  if (rows.length === 0) {
    const [p] = await tx.select().from(boosterPacks).where(eq(boosterPacks.id, packId));
    if (!p) fieldError('packId', 'No such pack');
    fieldError('quantity', `Only ${Math.max(0, p.supply - p.sold - p.reserved).toLocaleString('en')} of ${p.name} are left to allocate (${p.sold.toLocaleString('en')} sold, ${p.reserved.toLocaleString('en')} allocated, supply ${p.supply.toLocaleString('en')})`);
  }
}

export async function prepareAllocationCreate(input: Row, { tx }: { tx: DbOrTx }): Promise<Row> {
  const errors = new FieldErrors();
  const [store] = await tx.select().from(offlineStores).where(eq(offlineStores.id, Number(input.storeId)));
  if (!store) errors.add('storeId', 'No such store');
  else if (store.status !== 'active') errors.add('storeId', `${store.name} is inactive`);
  const [pack] = await tx.select({ id: boosterPacks.id }).from(boosterPacks).where(eq(boosterPacks.id, Number(input.packId)));
  if (!pack) errors.add('packId', 'No such pack');
  errors.throwIfAny();
  await reserve(tx, pack!.id, Number(input.quantity));
  return { storeId: Number(input.storeId), packId: pack!.id, quantity: input.quantity, price: BigInt(String(input.price)) };
}

export async function prepareAllocationUpdate(input: Row, { tx, existing }: { tx: DbOrTx; existing: Row }): Promise<Row> {
  const out: Row = {};
  const [row] = await tx.select().from(storeAllocations).where(eq(storeAllocations.id, Number(existing.id)));
  if (input.price !== undefined) out.price = BigInt(String(input.price));
  if (input.quantity !== undefined) {
    const q = Number(input.quantity);
    if (q < row!.codesGenerated) fieldError('quantity', `At least ${row!.codesGenerated}: codes were generated for them`);
    await reserve(tx, row!.packId, q - row!.quantity);
    out.quantity = q;
  }
  return out;
}

/** An allocation is deleted only before any code was generated; its packs go back to the pack's supply. */
export async function beforeAllocationDelete(records: Row[], { tx }: { tx: DbOrTx }): Promise<void> {
  for (const r of records) {
    const [row] = await tx.select().from(storeAllocations).where(eq(storeAllocations.id, Number(r._id))).for('update');
    if (!row) continue;
    if (row.codesGenerated > 0) throw conflict(`${row.codesGenerated} codes were generated for this allocation: it cannot be deleted (lower its quantity instead)`);
    await reserve(tx, row.packId, -row.quantity);
  }
}

/**
 * Generates `count` codes for an allocation (up to its quantity): each from the CSPRNG, stored as its
 * SHA-256 and last four characters only; the codes themselves are answered once, here.
 */
export async function generateCodes(tx: DbOrTx, actor: Actor, allocationId: number, count: number): Promise<ActionAnswer> {
  const [a] = await tx
    .select({ allocation: storeAllocations, store: offlineStores.name, pack: boosterPacks.name })
    .from(storeAllocations)
    .innerJoin(offlineStores, eq(offlineStores.id, storeAllocations.storeId))
    .innerJoin(boosterPacks, eq(boosterPacks.id, storeAllocations.packId))
    .where(eq(storeAllocations.id, allocationId))
    .for('update', { of: storeAllocations });
  if (!a) throw notFound('Allocation');
  const left = a.allocation.quantity - a.allocation.codesGenerated;
  if (count > left) throw conflict(`Only ${left} more codes can be generated for this allocation (quantity ${a.allocation.quantity}, ${a.allocation.codesGenerated} generated)`, { count: `At most ${left}` });
  const codes = new Set<string>();
  while (codes.size < count) codes.add(newStoreCode());
  const list = [...codes];
  await tx.insert(storeCodes).values(list.map((c) => ({ allocationId, codeHash: codeHash(c), hint: c.slice(-4), createdBy: actor.kind === 'admin' ? actor.admin.id : null })));
  await tx.update(storeAllocations).set({ codesGenerated: a.allocation.codesGenerated + count, updatedAt: new Date() }).where(eq(storeAllocations.id, allocationId));
  const summary = `${count} code${count === 1 ? '' : 's'} generated for ${a.pack} at ${a.store}`;
  // Named for its store, pack and time (UTC): the files of several stores, or of two batches, stay apart.
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  const filename = `codes-${slugify(a.store, 'store', 40)}-${slugify(a.pack, 'pack', 40)}-${stamp}.csv`;
  return { message: summary, output: { summary, ok: true, rows: list.map((c) => ({ code: formatStoreCode(c), pack: a.pack, store: a.store })), filename } };
}

/**
 * Redeems a code once: the code row is locked (a second redemption, at once or later, waits and then
 * finds it redeemed: 409), one of the packs reserved for the store becomes sold, and the user gets a
 * purchase of the pack (source `store_code`, price 0: it was paid at the store).
 */
export async function redeemStoreCode(tx: DbOrTx, actor: Actor, input: { userId: number; code: string }): Promise<PackPurchaseRow> {
  const normalized = normalizeStoreCode(input.code);
  if (!normalized) fieldError('code', `A code is ${STORE_CODE_LENGTH} letters and digits (XXXXX-XXXXX-XXXXX-XXXXX)`);
  const user = await loadUser(tx, input.userId);
  if (user.status !== 'active') throw conflict('This user is blocked', { userId: 'Blocked users cannot redeem' });
  const [code] = await tx.select().from(storeCodes).where(eq(storeCodes.codeHash, codeHash(normalized))).for('update');
  if (!code) throw notFound('Code');
  if (code.status === 'redeemed') throw conflict('This code was already redeemed', { code: 'Already redeemed' });
  const [alloc] = await tx.select().from(storeAllocations).where(eq(storeAllocations.id, code.allocationId)).for('update');
  const pack = await takePack(tx, alloc!.packId, { fromReserve: true });
  if (!pack) throw conflict('No pack is left reserved for this store');
  const [purchase] = await tx.insert(packPurchases).values({ packId: pack.id, userId: user.id, source: 'store_code', price: 0n, coinId: pack.coinId, storeCodeId: code.id }).returning();
  await tx.update(storeAllocations).set({ redeemed: alloc!.redeemed + 1, updatedAt: new Date() }).where(eq(storeAllocations.id, alloc!.id));
  await tx.update(storeCodes).set({ status: 'redeemed', redeemedBy: user.id, redeemedAt: new Date(), purchaseId: purchase!.id }).where(eq(storeCodes.id, code.id));
  await writeAudit(tx, actor, { action: 'redeem', resource: 'store-codes', recordId: code.id, before: { status: 'unused' }, after: { status: 'redeemed', userId: user.id, purchaseId: purchase!.id, packId: pack.id } });
  return purchase!;
}
