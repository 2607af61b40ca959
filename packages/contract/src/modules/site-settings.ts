import { z } from 'zod';
import { updateSchemaOf } from '../resources/spec.js';

const optionalUrl = z
  .string()
  .trim()
  .max(500, 'Too long')
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v) || /^\/(?!\/)[^\s]*$/.test(v), 'Enter a full http(s) URL or a path')
  .default('');
const optionalEmail = z.union([z.literal(''), z.email({ error: 'Enter a valid email address' })]).default('');

export const socialLinksSchema = z.object({
  twitter: optionalUrl,
  discord: optionalUrl,
  telegram: optionalUrl,
  instagram: optionalUrl,
  facebook: optionalUrl,
});

/**
 * Site settings: one record. Fees are integer basis points (1 bp = 0.01 %),
 * amounts are integer minor units: no floats.
 */
export const siteSettingsSchema = z.object({
  siteName: z.string().trim().min(1, 'Site name is required').max(100, 'Too long').regex(/^[^\p{Cc}]*$/u, 'No control characters'),
  logoUrl: optionalUrl,
  faviconUrl: optionalUrl,
  contactEmail: optionalEmail,
  supportEmail: optionalEmail,
  socialLinks: socialLinksSchema,
  maintenanceMode: z.boolean(),
  registrationOpen: z.boolean(),
  takerFeeBps: z.number().int('Whole basis points').min(0, 'Cannot be negative').max(1000, 'At most 1000 bp (10 %)'),
  makerFeeBps: z.number().int('Whole basis points').min(0, 'Cannot be negative').max(1000, 'At most 1000 bp (10 %)'),
  withdrawalAutoApproveLimit: z
    .string()
    .regex(/^\d{1,18}$/, 'A whole number of minor units (at most 18 digits)')
    .describe('Whitelisted addresses skip manual review up to this amount (minor units); 0 = always review'),
  withdrawalsEnabled: z.boolean(),
  footerText: z.string().trim().max(500, 'Too long'),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** `updateSiteDetails` accepts any subset; missing fields keep their value. */
export const updateSiteSettingsBody = updateSchemaOf(siteSettingsSchema)
  .extend({ socialLinks: updateSchemaOf(socialLinksSchema).strict().optional() })
  .strict();

export interface SiteSettingsRecord extends SiteSettings {
  _id: string;
  updatedAt: string;
}

/** `getSiteSetting` optional query: `fields=siteName,logoUrl` narrows the answer. */
export const getSiteSettingQuery = z.object({
  fields: z
    .string()
    .max(500)
    .regex(/^[A-Za-z,]*$/, 'Comma-separated field names')
    .optional(),
});
