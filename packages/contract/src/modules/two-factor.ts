import { z } from 'zod';
import { PASSWORD_MAX } from '../constants.js';
import { ACCOUNT_ACCESS, endpoint, PUBLIC_ACCESS } from '../resources/endpoint.js';
import { loginResultSchema } from './auth.js';

/** TOTP (RFC 6238): 30 s steps, 6 digits, ±1 step accepted; 10 recovery codes. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
/** Wrong codes in a row before each further try waits (growing delay). */
export const TWO_FACTOR_FREE_FAILURES = 5;
/** How long the first sign-in step's challenge stays usable. */
export const TWO_FACTOR_CHALLENGE_MINUTES = 5;

/** A 6-digit code from the authenticator app, or a recovery code (`xxxx-xxxx-xxxx`). */
export const twoFactorCodeSchema = z
  .string({ error: 'Enter the code' })
  .trim()
  .min(1, 'Enter the code')
  .max(40, 'This code is too long');

const passwordField = z.string({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX, 'Password is too long');

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** A secret was created and awaits its first code. */
  pending: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
  /** The site setting requires 2FA of every admin. */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export const twoFactorSetupSchema = z.object({
  /** Base32, for typing into the app by hand. */
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URL as a QR code, an SVG data URL. */
  qrCode: z.string(),
});

export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

export const twoFactorSetupBody = z.object({ password: passwordField });
export const twoFactorEnableBody = z.object({ code: twoFactorCodeSchema });
export const twoFactorReauthBody = z.object({ password: passwordField, code: twoFactorCodeSchema });

export const loginTwoFactorBody = z.object({
  challenge: z.string({ error: 'Sign in again' }).min(20, 'Sign in again').max(200, 'Sign in again'),
  code: twoFactorCodeSchema,
});

export const twoFactorEndpoints = {
  loginTwoFactor: endpoint('POST /api/admin/login/2fa', {
    access: PUBLIC_ACCESS,
    summary: 'Second sign-in step: the challenge and a code (or recovery code) give the session',
    body: loginTwoFactorBody,
    result: loginResultSchema,
  }),
  status: endpoint('GET /api/admin/2fa', { access: ACCOUNT_ACCESS, summary: 'Own 2FA status', result: twoFactorStatusSchema }),
  setup: endpoint('POST /api/admin/2fa/setup', {
    access: ACCOUNT_ACCESS,
    summary: 'Start enrolment (password): a new secret, not active until confirmed',
    body: twoFactorSetupBody,
    result: twoFactorSetupSchema,
  }),
  enable: endpoint('POST /api/admin/2fa/enable', {
    access: ACCOUNT_ACCESS,
    summary: 'Confirm enrolment with a first code: 2FA on, recovery codes shown once',
    body: twoFactorEnableBody,
    result: recoveryCodesSchema,
  }),
  disable: endpoint('POST /api/admin/2fa/disable', { access: ACCOUNT_ACCESS, summary: 'Turn 2FA off (password and a code)', body: twoFactorReauthBody }),
  regenerateCodes: endpoint('POST /api/admin/2fa/recovery-codes', {
    access: ACCOUNT_ACCESS,
    summary: 'New recovery codes (password and a code); the old ones stop working',
    body: twoFactorReauthBody,
    result: recoveryCodesSchema,
  }),
};
