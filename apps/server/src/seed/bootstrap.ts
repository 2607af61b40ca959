import { randomBytes } from 'node:crypto';
import { MAIL_TEMPLATE_KEYS, MAIL_TEMPLATES, PASSWORD_MAX, PASSWORD_MIN, type MailTemplateKey, RESTRICTION_MODULE, ROUTES, SIDEBAR_GROUPS, RESTRICTION_NAMES } from '@pitboss/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { admins, coins, emailTemplates, permissionModules, permissionSubModules } from '../db/schema.js';
import { hashPassword, passwordWeakness } from '../lib/passwords.js';
import { loadSiteSettings } from '../modules/site-settings/service.js';

/**
 * The first text of every mail the product sends (`MAIL_TEMPLATES` in the contract declares the
 * keys and their variables). Created once in every mode, then the admins' to edit (never deleted).
 */
export const DEFAULT_TEMPLATES: Record<MailTemplateKey, { subject: string; html: string }> = {
  forgot_password: {
    subject: 'Reset your {{siteName}} admin password',
    html:
      '<p>Hello {{name}},</p><p>Someone asked to reset the password of the admin account {{email}}. ' +
      'The link below works once, for {{expiresInMinutes}} minutes:</p><p><a href="{{link}}">{{link}}</a></p>' +
      '<p>If it was not you, ignore this mail: your password stays as it is.</p>',
  },
  email_changed: {
    subject: 'The email of your admin account was changed',
    html:
      '<p>Hello {{name}},</p><p>The email of your admin account was changed from {{oldEmail}} to {{newEmail}}.</p>' +
      '<p>If you did not do this, tell a super admin at once.</p>',
  },
  two_factor_changed: {
    subject: 'Two-factor authentication changed on your {{siteName}} admin account',
    html:
      '<p>Hello {{name}},</p><p>{{change}}</p><p>Account: {{email}}.</p>' +
      '<p>If you did not do this, tell a super admin at once: they can end your sessions and reset your access.</p>',
  },
  new_sign_in_country: {
    subject: 'New sign-in to your {{siteName}} admin account from {{country}}',
    html:
      '<p>Hello {{name}},</p><p>Your admin account {{email}} was just signed in to from a country it has not been used from before:</p>' +
      '<p>Where: {{location}}<br>Address: {{ip}}<br>Device: {{device}}<br>When: {{time}}</p>' +
      '<p>If it was you, there is nothing to do. If not, change your password and end the session from your profile at once: <a href="{{link}}">{{link}}</a></p>',
  },
  withdrawal_approved: {
    subject: 'Your {{siteName}} withdrawal of {{amount}} was approved',
    html:
      '<p>Hello {{username}},</p><p>Your withdrawal #{{withdrawalId}} of <strong>{{amount}}</strong> (fee {{fee}}) to<br><code>{{toAddress}}</code><br>was approved. ' +
      'It is sent on chain shortly; you will see the transaction in your history.</p><p>The {{siteName}} team</p>',
  },
  withdrawal_rejected: {
    subject: 'Your {{siteName}} withdrawal of {{amount}} was rejected',
    html:
      '<p>Hello {{username}},</p><p>Your withdrawal #{{withdrawalId}} of <strong>{{amount}}</strong> to <code>{{toAddress}}</code> was rejected.</p>' +
      '<p>Reason: {{reason}}</p><p>The amount and its fee are back in your available balance. Contact support if you have questions.</p><p>The {{siteName}} team</p>',
  },
  deposit_confirmed: {
    subject: 'Your {{siteName}} deposit of {{amount}} is confirmed',
    html:
      '<p>Hello {{username}},</p><p>Your deposit #{{depositId}} of <strong>{{amount}}</strong> is confirmed and credited to your balance.</p>' +
      '<p>Transaction: <code>{{txSignature}}</code></p><p>The {{siteName}} team</p>',
  },
  ticket_reply: {
    subject: 'Re: {{subject}} [ticket #{{ticketId}}]',
    html:
      '<p>Hello {{username}},</p><p>{{adminName}} from the {{siteName}} support team answered your ticket “{{subject}}”:</p>' +
      '<blockquote>{{message}}</blockquote><p>Reply from your account’s support page; a new message reopens the ticket.</p>',
  },
};

/**
 * Every template the product sends exists, in every mode: a missing one is created with its first
 * text; each one's accepted variables follow the catalogue (the code decides what it passes). An
 * admin's edits are kept.
 */
export async function ensureEmailTemplates(db: Db): Promise<void> {
  for (const key of MAIL_TEMPLATE_KEYS) {
    const def = MAIL_TEMPLATES[key];
    const variables = Object.keys(def.variables);
    await db.insert(emailTemplates).values({ key, name: def.name, ...DEFAULT_TEMPLATES[key], variables }).onConflictDoNothing({ target: emailTemplates.key });
    await db.update(emailTemplates).set({ variables }).where(and(eq(emailTemplates.key, key), sql`${emailTemplates.variables} <> ${JSON.stringify(variables)}::jsonb`));
  }
}

/**
 * The platform's coins on Solana devnet: the native coin and the configured token (devnet USDC).
 * There is no page to add a coin (the seed has only the list and the update page): they are the
 * platform's configuration, created once in every mode; admins tune fees and limits.
 */
export const PLATFORM_COINS = [
  // A deposit of 100 SOL or 10,000 USDC and more notifies the admins who may view deposits. Tables
  // show SOL to 4 decimals (0.0050 SOL), USDC as dollars and cents.
  { symbol: 'SOL', name: 'Solana', network: 'devnet', mintAddress: null, decimals: 9, displayDecimals: 4, minWithdrawal: 10_000_000n, withdrawalFee: 5_000n, largeDepositThreshold: 100_000_000_000n },
  { symbol: 'USDC', name: 'USD Coin', network: 'devnet', mintAddress: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU', decimals: 6, displayDecimals: 2, minWithdrawal: 1_000_000n, withdrawalFee: 500_000n, largeDepositThreshold: 10_000_000_000n },
] as const;

export interface BootstrapResult {
  createdAdmin: { email: string; password: string | null; generated: boolean } | null;
}

/**
 * What every database needs, in any mode, created once: the site settings
 * record, the email templates, the permission catalogue from the route table,
 * and the first super admin on an empty admins table.
 */
export async function bootstrap(db: Db, config: Config): Promise<BootstrapResult> {
  await loadSiteSettings(db);
  await ensureEmailTemplates(db);

  // Permission catalogue: one module per sidebar group, one sub module per restriction name.
  for (const [i, group] of SIDEBAR_GROUPS.entries()) {
    // Only groups that hold restriction names are modules (not the dashboard nor the approval queue, open to every admin).
    if (!Object.values(RESTRICTION_MODULE).includes(group)) continue;
    await db.insert(permissionModules).values({ name: group, sortOrder: i }).onConflictDoNothing({ target: permissionModules.name });
  }
  const modules = await db.select().from(permissionModules);
  for (const [i, name] of RESTRICTION_NAMES.entries()) {
    const mod = modules.find((m) => m.name === RESTRICTION_MODULE[name]);
    if (!mod) continue;
    const pages = ROUTES.filter((r) => r.restriction === name).map((r) => r.path);
    await db.insert(permissionSubModules).values({ moduleId: mod.id, name, pages, sortOrder: i }).onConflictDoNothing({ target: permissionSubModules.name });
  }
  for (const c of PLATFORM_COINS) await db.insert(coins).values(c).onConflictDoNothing();

  const [existing] = await db.select({ n: count() }).from(admins).where(eq(admins.role, 'superadmin'));
  if (Number(existing?.n ?? 0) > 0) return { createdAdmin: null };
  if (config.adminPassword && (config.adminPassword.length < PASSWORD_MIN || config.adminPassword.length > PASSWORD_MAX || passwordWeakness(config.adminPassword, [config.adminName, config.adminEmail]))) {
    throw new Error(`ADMIN_PASSWORD must be ${PASSWORD_MIN}–${PASSWORD_MAX} characters and hard to guess (a few uncommon words, not a common password)`);
  }
  const generated = !config.adminPassword;
  const password = config.adminPassword ?? randomBytes(12).toString('base64url');
  const [taken] = await db.select({ id: admins.id }).from(admins).where(eq(sql`lower(${admins.email})`, config.adminEmail));
  if (taken) throw new Error(`ADMIN_EMAIL ${config.adminEmail} belongs to a sub-admin; choose another email for the super admin`);
  await db.insert(admins).values({ name: config.adminName, email: config.adminEmail, passwordHash: await hashPassword(password), role: 'superadmin' });
  return { createdAdmin: { email: config.adminEmail, password, generated } };
}
