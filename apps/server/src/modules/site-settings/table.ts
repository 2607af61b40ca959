import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, jsonb, pgTable, text, } from 'drizzle-orm/pg-core';
import { updatedAt } from '../../db/columns.js';

export const siteSettings = pgTable(
  'site_settings',
  {
    id: integer('id').primaryKey().default(1),
    siteName: text('site_name').notNull().default('Pitboss'),
    logoUrl: text('logo_url').notNull().default(''),
    faviconUrl: text('favicon_url').notNull().default(''),
    contactEmail: text('contact_email').notNull().default(''),
    supportEmail: text('support_email').notNull().default(''),
    socialLinks: jsonb('social_links').notNull().$type<Record<string, string>>().default({}),
    maintenanceMode: boolean('maintenance_mode').notNull().default(false),
    registrationOpen: boolean('registration_open').notNull().default(true),
    takerFeeBps: integer('taker_fee_bps').notNull().default(100),
    makerFeeBps: integer('maker_fee_bps').notNull().default(0),
    withdrawalsEnabled: boolean('withdrawals_enabled').notNull().default(true),
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    /** Resolutions are proposed, then confirmed by a second admin after the dispute window (hours). */
    resolutionTwoAdmins: boolean('resolution_two_admins').notNull().default(false),
    resolutionDisputeHours: integer('resolution_dispute_hours').notNull().default(24),
    footerText: text('footer_text').notNull().default(''),
    updatedAt: updatedAt(),
    updatedBy: bigint('updated_by', { mode: 'number' }),
  },
  (t) => [
    check('site_settings_single_ck', sql`${t.id} = 1`),
    check('site_settings_dispute_ck', sql`${t.resolutionDisputeHours} between 0 and 168`),
  ],
);
