import { z } from 'zod';
import { isRestrictionName, namedRightsOf } from '../restrictions.js';
import { emailSchema, passwordSchema } from './auth.js';

/** One row of the permission matrix; the name must be a known restriction name. canEdit implies canView. */
export const restrictionGrantSchema = z
  .object({
    name: z.string().refine(isRestrictionName, 'Unknown restriction name'),
    canView: z.boolean(),
    canEdit: z.boolean(),
    rights: z.array(z.string().max(50)).max(20).optional(),
  })
  .refine((g) => (g.rights ?? []).every((r) => namedRightsOf(g.name).some((n) => n.key === r)), { message: 'Unknown right for this name', path: ['rights'] })
  .transform((g) => {
    const rights = [...new Set(g.rights ?? [])].sort();
    // Any right implies viewing the name's pages.
    const canView = g.canView || g.canEdit || rights.length > 0;
    return rights.length ? { name: g.name, canView, canEdit: g.canEdit, rights } : { name: g.name, canView, canEdit: g.canEdit };
  });

export const restrictionListSchema = z
  .array(restrictionGrantSchema)
  .max(100)
  .refine((list) => new Set(list.map((g) => g.name)).size === list.length, 'Each restriction name may appear once');

export const adminStatusSchema = z.enum(['active', 'disabled']);

export const createSubAdminBody = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(2, 'Name must be at least 2 characters').max(100, 'Name is too long'),
  email: emailSchema,
  password: passwordSchema,
  restriction: restrictionListSchema.default([]),
  status: adminStatusSchema.default('active'),
});

export const updateSubAdminBody = z
  .object({
    name: createSubAdminBody.shape.name,
    email: emailSchema,
    restriction: restrictionListSchema,
    status: adminStatusSchema,
  })
  .partial()
  .strict();

export const setAdminPasswordBody = z.object({ password: passwordSchema }).strict();

export interface SubAdminRecord {
  _id: string;
  name: string;
  email: string;
  role: string;
  status: 'active' | 'disabled';
  restriction: { name: string; canView: boolean; canEdit: boolean }[];
  lastLoginAt: string | null;
  liveSessions: number;
  /** Who created the account (null: a super admin, or before this was recorded). */
  createdByEmail: string | null;
  /** Who disabled it, while it is disabled. */
  disabledByEmail: string | null;
  createdAt: string;
  updatedAt: string;
}
