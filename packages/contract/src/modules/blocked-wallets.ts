import { z } from 'zod';
import { common, recordFields, resourceSpec, updateSchemaOf } from '../resources/spec.js';
import { isSolanaAddress } from '../lib/solana.js';

const reason = z.string().trim().max(500, 'At most 500 characters').default('');

// ── Block Wallet / Whitelist Wallet ────────────────────────────────────────
export const walletCreate = z.object({
  address: z.string({ error: 'Address is required' }).trim().refine(isSolanaAddress, 'Enter a Solana public key (base58, 32 bytes)'),
  label: z.string().trim().max(100, 'At most 100 characters').default(''),
  reason,
});
export const walletUpdate = updateSchemaOf(walletCreate);

const walletColumns = [
  { key: 'address', label: 'Address', type: 'code', sortable: true },
  { key: 'label', label: 'Label', type: 'text', sortable: true },
  { key: 'reason', label: 'Reason', type: 'text' },
  { key: 'createdByEmail', label: 'Added by', type: 'text', hidden: true },
  { key: 'createdAt', label: 'Created', type: 'date', sortable: true },
] as const;
const walletForm = [
  { key: 'address', label: 'Wallet address', type: 'text', placeholder: 'Solana public key', required: true },
  { key: 'label', label: 'Label', type: 'text' },
  { key: 'reason', label: 'Reason', type: 'textarea' },
] as const;

export const walletRecord = z.object({
  _id: recordFields.id, address: z.string(), label: z.string(), reason: z.string(), createdByEmail: z.string().nullable(), createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const blockedWalletsResource = resourceSpec(walletRecord, {
  name: 'blocked-wallets',
  label: 'Blocked wallet',
  plural: 'Blocked wallets',
  restriction: 'Wallet Address',
  pages: { list: '/wallet-address', add: '/add-wallet-address', update: '/update-wallet-address/{id}' },
  titleField: 'address',
  columns: walletColumns,
  filters: [common.createdFilter],
  search: 'address, label or reason',
  defaultSort: '-createdAt',
  deleteMode: 'delete',
  form: walletForm,
  create: walletCreate,
  update: walletUpdate,
});
