import { randomBytes } from 'node:crypto';
import { PASSWORD_MAX, PASSWORD_MIN, RESTRICTION_MODULE, ROUTES, SIDEBAR_GROUPS, RESTRICTION_NAMES } from '@pitboss/contract';
import { count, eq, sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { admins, coins, emailTemplates, permissionModules, permissionSubModules } from '../db/schema.js';
import { hashPassword, passwordWeakness } from '../lib/passwords.js';
import { loadSiteSettings } from '../modules/site-settings/service.js';

export const DEFAULT_TEMPLATES = [
  {
    key: 'forgot_password',
    name: 'Forgot password',
    subject: 'Reset your {{siteName}} admin password',
    html:
      '<p>Hello {{name}},</p><p>Someone asked to reset the password of the admin account {{email}}. ' +
      'The link below works once, for {{expiresInMinutes}} minutes:</p><p><a href="{{link}}">{{link}}</a></p>' +
      '<p>If it was not you, ignore this mail: your password stays as it is.</p>',
    variables: ['name', 'email', 'link', 'expiresInMinutes', 'siteName'],
  },
  {
    key: 'email_changed',
    name: 'Admin email changed',
    subject: 'The email of your admin account was changed',
    html:
      '<p>Hello {{name}},</p><p>The email of your admin account was changed from {{oldEmail}} to {{newEmail}}.</p>' +
      '<p>If you did not do this, tell a super admin at once.</p>',
    variables: ['name', 'oldEmail', 'newEmail'],
  },
  {
    key: 'two_factor_changed',
    name: 'Two-factor authentication changed',
    subject: 'Two-factor authentication changed on your {{siteName}} admin account',
    html:
      '<p>Hello {{name}},</p><p>{{change}}</p><p>Account: {{email}}.</p>' +
      '<p>If you did not do this, tell a super admin at once: they can end your sessions and reset your access.</p>',
    variables: ['name', 'email', 'change', 'siteName'],
  },
  {
    key: 'new_sign_in_country',
    name: 'Sign-in from a new country',
    subject: 'New sign-in to your {{siteName}} admin account from {{country}}',
    html:
      '<p>Hello {{name}},</p><p>Your admin account {{email}} was just signed in to from a country it has not been used from before:</p>' +
      '<p>Where: {{location}}<br>Address: {{ip}}<br>Device: {{device}}<br>When: {{time}}</p>' +
      '<p>If it was you, there is nothing to do. If not, change your password and end the session from your profile at once: <a href="{{link}}">{{link}}</a></p>',
    variables: ['name', 'email', 'country', 'location', 'ip', 'device', 'time', 'link', 'siteName'],
  },
  {
    key: 'ticket_reply',
    name: 'Support ticket reply',
    subject: 'Re: {{subject}} [ticket #{{ticketId}}]',
    html:
      '<p>Hello {{username}},</p><p>{{adminName}} from the {{siteName}} support team answered your ticket “{{subject}}”:</p>' +
      '<blockquote>{{message}}</blockquote><p>Reply from your account’s support page; a new message reopens the ticket.</p>',
    variables: ['username', 'subject', 'ticketId', 'message', 'adminName', 'siteName'],
  },
];

/**
 * The platform's coins on Solana devnet: the native coin and the configured token (devnet USDC).
 * There is no page to add a coin (the seed has only the list and the update page): they are the
 * platform's configuration, created once in every mode; admins tune fees and limits.
 */
export const PLATFORM_COINS = [
  { symbol: 'SOL', name: 'Solana', network: 'devnet', mintAddress: null, decimals: 9, minWithdrawal: 10_000_000n, withdrawalFee: 5_000n },
  { symbol: 'USDC', name: 'USD Coin', network: 'devnet', mintAddress: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU', decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 500_000n },
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
  for (const t of DEFAULT_TEMPLATES) await db.insert(emailTemplates).values(t).onConflictDoNothing({ target: emailTemplates.key });

  // Permission catalogue: one module per sidebar group, one sub module per restriction name.
  for (const [i, group] of SIDEBAR_GROUPS.entries()) {
    if (group === 'Dashboard') continue;
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
