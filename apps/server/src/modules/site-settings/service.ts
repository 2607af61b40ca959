import { siteSettingsSchema, type SiteSettingsRecord } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import type { AdminActor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { siteSettings } from './table.js';
import { assertTwoApprovers } from '../approvals/service.js';

export type SiteSettingsRow = typeof siteSettings.$inferSelect;

export function toRecord(r: SiteSettingsRow): SiteSettingsRecord {
  const social = siteSettingsSchema.shape.socialLinks.parse(r.socialLinks ?? {});
  return {
    _id: String(r.id),
    siteName: r.siteName,
    logoUrl: r.logoUrl,
    faviconUrl: r.faviconUrl,
    contactEmail: r.contactEmail,
    supportEmail: r.supportEmail,
    socialLinks: social,
    maintenanceMode: r.maintenanceMode,
    registrationOpen: r.registrationOpen,
    takerFeeBps: r.takerFeeBps,
    makerFeeBps: r.makerFeeBps,
    withdrawalsEnabled: r.withdrawalsEnabled,
    requireTwoFactor: r.requireTwoFactor,
    resolutionTwoAdmins: r.resolutionTwoAdmins,
    resolutionDisputeHours: r.resolutionDisputeHours,
    footerText: r.footerText,
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The one row, created with its defaults the first time; `forUpdate` locks it for a write. */
export async function loadSiteSettings(db: DbOrTx, options: { forUpdate?: boolean } = {}): Promise<SiteSettingsRow> {
  const select = () => (options.forUpdate ? db.select().from(siteSettings).where(eq(siteSettings.id, 1)).for('update') : db.select().from(siteSettings).where(eq(siteSettings.id, 1)));
  const [row] = await select();
  if (row) return row;
  await db.insert(siteSettings).values({ id: 1 }).onConflictDoNothing();
  return (await select())[0]!;
}

/** Applies a validated patch: social links merge (naming one leaves the others). */
export async function updateSiteSettings(tx: DbOrTx, actor: AdminActor, patch: Record<string, unknown>, before: SiteSettingsRow): Promise<SiteSettingsRow> {
  // Two admins to resolve need two admins who may: turning it on is refused otherwise (409, on the switch).
  if (patch.resolutionTwoAdmins === true && !before.resolutionTwoAdmins) await assertTwoApprovers(tx, 'Markets', 'resolve', 'resolutionTwoAdmins');
  const set: Partial<typeof siteSettings.$inferInsert> = { updatedAt: new Date(), updatedBy: actor.admin.id };
  for (const [k, v] of Object.entries(patch)) {
    if (k === 'socialLinks') set.socialLinks = { ...(before.socialLinks ?? {}), ...(v as Record<string, string>) };
    else (set as Record<string, unknown>)[k] = v;
  }
  const [row] = await tx.update(siteSettings).set(set).where(eq(siteSettings.id, 1)).returning();
  return row!;
}
