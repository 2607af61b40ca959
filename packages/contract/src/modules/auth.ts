import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../constants.js';
import { ACCOUNT_ACCESS, endpoint, PUBLIC_ACCESS } from '../resources/endpoint.js';
import { RESTRICTION_NAMES } from '../restrictions.js';

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

/** The admin as `getadmindetail` returns it (seed §3); `profile` adds status and last sign-in. */
export const adminDetailSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  restriction: z.array(z.object({ name: z.enum(RESTRICTION_NAMES), canView: z.boolean(), canEdit: z.boolean(), rights: z.array(z.string()).optional() })),
  status: z.string().optional(),
  lastLoginAt: z.string().nullable().optional(),
  /** 2FA is on for this admin. */
  twoFactorEnabled: z.boolean().optional(),
  /** The admin must turn on 2FA before anything else (site setting on, theirs off). */
  twoFactorSetupRequired: z.boolean().optional(),
});
export type AdminDetail = z.infer<typeof adminDetailSchema>;

export const loginResultSchema = z.object({ token: z.string(), admin: adminDetailSchema, expiresAt: z.string() });
export type LoginResult = z.infer<typeof loginResultSchema>;
/** The first sign-in step's answer for an admin with 2FA on: no session, a challenge for `POST /api/admin/login/2fa`. */
export const twoFactorChallengeSchema = z.object({ twoFactorRequired: z.literal(true), challenge: z.string(), expiresAt: z.string() });
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

export const loginHistoryItemSchema = z.object({
  _id: z.string(),
  adminId: z.string().nullable(),
  email: z.string(),
  success: z.boolean(),
  reason: z.string().nullable(),
  ip: z.string(),
  location: z.string(),
  countryCode: z.string().nullable(),
  device: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
});
export type LoginHistoryItem = z.infer<typeof loginHistoryItemSchema>;

// ── Endpoints: signing in and out, password reset (public), the own account (any signed-in admin) ──

export const authEndpoints = {
  login: endpoint('POST /api/admin/login', {
    access: PUBLIC_ACCESS,
    summary: 'Sign in: a session token, or (2FA on) a challenge for `POST /api/admin/login/2fa` and no session',
    body: loginBody,
    result: z.union([loginResultSchema, twoFactorChallengeSchema]),
  }),
  logout: endpoint('POST /api/admin/logout', { access: ACCOUNT_ACCESS, summary: 'End this session' }),
  forgotPassword: endpoint('POST /api/admin/forgotPassword', { access: PUBLIC_ACCESS, summary: 'Mail a password-reset link (same answer for unknown emails)', body: forgotPasswordBody }),
  checkAuthToken: endpoint('POST /api/admin/checkauthtoken', { access: PUBLIC_ACCESS, summary: 'Whether a reset link is still valid', body: checkAuthTokenBody }),
  resetPassword: endpoint('POST /api/admin/resetPassword', { access: PUBLIC_ACCESS, summary: 'Set a new password from a reset link', body: resetPasswordBody }),
  health: endpoint('GET /api/health', { access: PUBLIC_ACCESS, summary: 'Liveness and database driver', result: z.object({ status: z.literal('ok'), driver: z.enum(['postgres', 'pglite']) }) }),
};

export const accountEndpoints = {
  adminDetail: endpoint('GET /api/admin/getadmindetail', { access: ACCOUNT_ACCESS, summary: 'The signed-in admin and their rights (seed §3)', result: adminDetailSchema }),
  profile: endpoint('GET /api/admin/profile', { access: ACCOUNT_ACCESS, summary: 'The signed-in admin\'s profile', result: adminDetailSchema }),
  updateProfile: endpoint('PUT /api/admin/profile', { access: ACCOUNT_ACCESS, summary: 'Change own name or email (email needs the current password)', body: updateProfileBody, result: adminDetailSchema }),
  changePassword: endpoint('POST /api/admin/changePassword', { access: ACCOUNT_ACCESS, summary: 'Change own password; other sessions end', body: changePasswordBody }),
};
