import { siteSettingsSchema, } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { siteSettings } from './table.js';

type Row = typeof siteSettings.$inferSelect;

export function toRecord(r: Row) {
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
    withdrawalAutoApproveLimit: r.withdrawalAutoApproveLimit.toString(),
    withdrawalsEnabled: r.withdrawalsEnabled,
    footerText: r.footerText,
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function loadSiteSettings(db: DbOrTx): Promise<Row> {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1));
  if (row) return row;
  const [created] = await db.insert(siteSettings).values({ id: 1 }).onConflictDoNothing().returning();
  return created ?? (await db.select().from(siteSettings).where(eq(siteSettings.id, 1)))[0]!;
}
