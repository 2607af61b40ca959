import { z } from 'zod';
import { common, recordFields, resourceSpec, updateSchemaOf } from '../resources/spec.js';
import { isIpOrCidr } from '../lib/ip.js';

const reason = z.string().trim().max(500, 'At most 500 characters').default('');

// ── Block IP ────────────────────────────────────────────────────────────────
export const blockedIpCreate = z.object({
  address: z.string({ error: 'Address is required' }).trim().min(1, 'Address is required').refine(isIpOrCidr, 'Enter an IPv4/IPv6 address or a CIDR range'),
  reason,
  /** Needed when the range holds the caller's own address or a super admin's recent one (the server answers CONFIRM_REQUIRED). */
  confirm: z.boolean().optional(),
});
export const blockedIpUpdate = updateSchemaOf(blockedIpCreate);

export const blockedIpRecord = z.object({
  _id: recordFields.id, address: z.string(), reason: z.string(), createdByEmail: z.string().nullable(), createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const blockedIpsResource = resourceSpec(blockedIpRecord, {
  name: 'blocked-ips',
  label: 'Blocked IP',
  plural: 'Blocked IPs',
  restriction: 'Ip Address',
  pages: { list: '/ip-address', add: '/add-block-ip', update: '/update-block-ip/{id}' },
  titleField: 'address',
  columns: [
    { key: 'address', label: 'Address / range', type: 'code', sortable: true },
    { key: 'reason', label: 'Reason', type: 'text' },
    { key: 'createdByEmail', label: 'Blocked by', type: 'text' },
    common.createdColumn,
    { key: 'updatedAt', label: 'Updated', type: 'date', sortable: true, hidden: true },
  ],
  filters: [common.createdFilter],
  search: 'address or reason',
  defaultSort: '-createdAt',
  deleteMode: 'delete',
  form: [
    { key: 'address', label: 'Address or CIDR range', type: 'text', placeholder: '203.0.113.7 or 198.51.100.0/24 or 2001:db8::/32', required: true },
    { key: 'reason', label: 'Reason', type: 'textarea' },
  ],
  create: blockedIpCreate,
  update: blockedIpUpdate,
});
