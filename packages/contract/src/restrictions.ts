/**
 * Restriction names, letter for letter as in the specification (seed §6),
 * plus the names this product adds so that every private page and every
 * endpoint is checked (marked `added` in ACCESS.md).
 */
export const SEED_RESTRICTION_NAMES = [
  'CardTier', 'Tags', 'Ip Address', 'Wallet Address', 'FAQ', 'Support category', 'Deposit', 'Category',
  'Markets', 'Events', 'Series', 'Users', 'Email Templates', 'CMS Pages', 'Trade Bot', 'Coin List',
  'Booster Packs', 'Boostercards', 'Character', 'Rewardcards', 'OfflineStore', 'Whitelist Wallet Address',
  'Payment History', 'Support Ticket', 'Support Reply', 'Crypto Reward Card CMS', 'Site Setting',
  'Admin Profit', 'Notification', 'Sub Admin', 'Modules', 'Sub Modules',
] as const;

export const ADDED_RESTRICTION_NAMES = ['Withdraw', 'Trade History', 'Audit Log'] as const;

export const RESTRICTION_NAMES = [...SEED_RESTRICTION_NAMES, ...ADDED_RESTRICTION_NAMES] as const;
export type RestrictionName = (typeof RESTRICTION_NAMES)[number];

export function isRestrictionName(value: string): value is RestrictionName {
  return (RESTRICTION_NAMES as readonly string[]).includes(value);
}

export interface RestrictionEntry {
  name: string;
  canView: boolean;
  canEdit: boolean;
}

/** What a page (or endpoint) allows the current admin to do. */
export interface PageAccess {
  canView: boolean;
  canEdit: boolean;
}
