import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../constants.js';

export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .pipe(z.email({ error: 'Enter a valid email address' }))
  .transform((v) => v.toLowerCase());

/** Length only: the server also refuses guessable passwords (zxcvbn). No truncation anywhere. */
export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

export const restrictionEntrySchema = z.object({
  name: z.string().min(1).max(100),
  canView: z.boolean(),
  canEdit: z.boolean(),
});

export const loginBody = z.object({
  email: emailSchema,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX, 'Password is too long'),
});
export type LoginBody = z.input<typeof loginBody>;

export const forgotPasswordBody = z.object({ email: emailSchema });

export const resetTokenSchema = z.string({ error: 'Token is required' }).trim().min(1, 'Token is required').max(200, 'Invalid token');
export const checkAuthTokenBody = z.object({ token: resetTokenSchema });

export const resetPasswordBody = z
  .object({ token: resetTokenSchema, password: passwordSchema, confirmPassword: z.string({ error: 'Confirm your password' }) })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'Passwords do not match' });

export const changePasswordBody = z
  .object({
    currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(PASSWORD_MAX),
    newPassword: passwordSchema,
    confirmPassword: z.string({ error: 'Confirm your password' }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'Passwords do not match' })
  .refine((v) => v.newPassword !== v.currentPassword, { path: ['newPassword'], message: 'The new password must differ from the current one' });

export const updateProfileBody = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(2, 'Name must be at least 2 characters').max(100, 'Name is too long'),
  email: emailSchema,
  /** Needed to change the email: a stolen session must not be able to redirect password resets. */
  currentPassword: z.string().max(PASSWORD_MAX).optional(),
});

/** The admin as `getadmindetail` returns it (seed §3). */
export interface AdminDetail {
  _id: string;
  name: string;
  email: string;
  role: string;
  restriction: { name: string; canView: boolean; canEdit: boolean }[];
  status?: string;
  lastLoginAt?: string | null;
}

export interface LoginResult {
  token: string;
  admin: AdminDetail;
  expiresAt: string;
}

export interface LoginHistoryItem {
  _id: string;
  adminId: string | null;
  email: string;
  success: boolean;
  reason: string | null;
  ip: string;
  userAgent: string;
  createdAt: string;
}

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
