import { z } from 'zod';
import { isUrlOrSitePath } from '../lib/fields.js';
import { singleSpec } from '../resources/single.js';
import { updateSchemaOf } from '../resources/spec.js';
import { imageOrLegacyUrlSchema } from './uploads.js';

const optionalUrl = z
  .string()
  .trim()
  .max(500, 'Too long')
  .refine((v) => v === '' || isUrlOrSitePath(v), 'Enter a full http(s) URL or a path')
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
  logoUrl: imageOrLegacyUrlSchema.default(''),
  faviconUrl: optionalUrl,
  contactEmail: optionalEmail,
  supportEmail: optionalEmail,
  socialLinks: socialLinksSchema,
  maintenanceMode: z.boolean(),
  registrationOpen: z.boolean(),
  takerFeeBps: z.number().int('Whole basis points').min(0, 'Cannot be negative').max(1000, 'At most 1000 bp (10 %)'),
  makerFeeBps: z.number().int('Whole basis points').min(0, 'Cannot be negative').max(1000, 'At most 1000 bp (10 %)'),
  withdrawalsEnabled: z.boolean(),
  requireTwoFactor: z.boolean(),
  /** Resolving a market proposes it; another admin holding Markets › resolve confirms it after the dispute window. */
  resolutionTwoAdmins: z.boolean(),
  /** Hours a resolution proposal waits before it can be confirmed (0: at once, still by another admin). */
  resolutionDisputeHours: z.number().int('Whole hours').min(0, 'Cannot be negative').max(168, 'At most 168 hours (a week)'),
  footerText: z.string().trim().max(500, 'Too long'),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** `updateSiteDetails` accepts any subset; missing fields keep their value. */
export const updateSiteSettingsBody = updateSchemaOf(siteSettingsSchema)
  .extend({ socialLinks: updateSchemaOf(socialLinksSchema).strict().optional() })
  .strict();

export const siteSettingsRecord = siteSettingsSchema.extend({ _id: z.string(), updatedAt: z.string() }).strict();
export type SiteSettingsRecord = z.infer<typeof siteSettingsRecord>;

const social = (key: keyof z.infer<typeof socialLinksSchema>, label: string) => ({ key: `socialLinks.${key}` as const, label, type: 'text' as const, placeholder: 'https://…' });
const BPS = 'Whole basis points (1 bp = 0.01 %), at most 1000';

/** `/site-setting`: the seed's `getSiteSetting` / `updateSiteDetails`, on the single-record mechanism. */
export const siteSettingsResource = singleSpec(siteSettingsRecord, {
  name: 'site-settings',
  label: 'Site settings',
  description: 'One record for the whole platform.',
  restriction: 'Site Setting',
  page: '/site-setting',
  endpoints: { read: '/api/admin/getSiteSetting', update: { method: 'POST', path: '/api/admin/updateSiteDetails' } },
  readableByEveryAdmin: true,
  update: updateSiteSettingsBody,
  sections: [
    {
      title: 'General', description: 'Name and look of the platform.', columns: 2,
      fields: [
        { key: 'siteName', label: 'Site name', type: 'text', required: true },
        { key: 'logoUrl', label: 'Logo', type: 'image' },
        { key: 'faviconUrl', label: 'Favicon URL', type: 'text', placeholder: 'https://… or /path' },
        { key: 'footerText', label: 'Footer text', type: 'textarea' },
      ],
    },
    {
      title: 'Contact', description: 'Addresses shown to users.', columns: 2,
      fields: [
        { key: 'contactEmail', label: 'Contact email', type: 'email' },
        { key: 'supportEmail', label: 'Support email', type: 'email' },
      ],
    },
    {
      title: 'Social links', description: 'Full URLs; leave empty to hide a network.', columns: 2,
      fields: [social('twitter', 'X (Twitter)'), social('discord', 'Discord'), social('telegram', 'Telegram'), social('instagram', 'Instagram'), social('facebook', 'Facebook')],
    },
    {
      title: 'Platform', description: 'Switches that change what users can do.', columns: 1,
      fields: [
        { key: 'maintenanceMode', label: 'Maintenance mode', type: 'switch', description: 'Users see a maintenance notice; admins keep working.' },
        { key: 'registrationOpen', label: 'Registration open', type: 'switch', description: 'New users can sign up.' },
        { key: 'withdrawalsEnabled', label: 'Withdrawals enabled', type: 'switch', description: 'Users can request withdrawals.' },
      ],
    },
    {
      title: 'Admin security', description: 'Rules for every admin account.', columns: 1,
      fields: [
        { key: 'requireTwoFactor', label: 'Require two-factor authentication', type: 'switch', description: 'Admins without 2FA can only enrol (on the 2FA page) until they turn it on.' },
      ],
    },
    {
      title: 'Fees', description: 'In basis points (1 bp = 0.01 %). Withdrawal limits and the large-deposit threshold are per coin, on each coin’s page.', columns: 3,
      fields: [
        { key: 'takerFeeBps', label: 'Taker fee (bp)', type: 'number', description: BPS },
        { key: 'makerFeeBps', label: 'Maker fee (bp)', type: 'number', description: BPS },
      ],
    },
    {
      title: 'Market resolution', description: 'Settling a market cannot be undone: two admins can be made to take part.', columns: 2,
      fields: [
        {
          key: 'resolutionTwoAdmins', label: 'Resolutions need a second admin', type: 'switch',
          description: 'Resolve then proposes the result; another admin holding Markets › Resolve confirms it (settling it) after the dispute window, or either rejects it. Needs two such admins.',
        },
        { key: 'resolutionDisputeHours', label: 'Dispute window (hours)', type: 'number', description: 'How long a proposal waits before it can be confirmed; 0 to 168' },
      ],
    },
  ],
});

/** `getSiteSetting` optional query: `fields=siteName,logoUrl` narrows the answer. */
export const getSiteSettingQuery = z.object({
  fields: z
    .string()
    .max(500)
    .regex(/^[A-Za-z,]*$/, 'Comma-separated field names')
    .optional(),
});
