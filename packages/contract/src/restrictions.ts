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

export const ADDED_RESTRICTION_NAMES = ['Withdraw', 'Trade History', 'Audit Log', 'Reconciliation'] as const;

export const RESTRICTION_NAMES = [...SEED_RESTRICTION_NAMES, ...ADDED_RESTRICTION_NAMES] as const;
export type RestrictionName = (typeof RESTRICTION_NAMES)[number];

export function isRestrictionName(value: string): value is RestrictionName {
  return (RESTRICTION_NAMES as readonly string[]).includes(value);
}

/**
 * Named rights: decisions that are their own permission under a restriction
 * name (approving a withdrawal is not the same as editing one). Each is a
 * column of the permission matrix; an action declares the one it needs.
 */
export const NAMED_RIGHTS = {
  Withdraw: [{ key: 'approve', label: 'Approve / reject' }],
  Users: [{ key: 'adjust-balance', label: 'Adjust balances' }],
  Markets: [
    { key: 'resolve', label: 'Resolve / void' },
    { key: 'kill-switch', label: 'Kill switch' },
  ],
} as const satisfies Partial<Record<RestrictionName, readonly { key: string; label: string }[]>>;

export type NamedRightsOf<N extends RestrictionName> = N extends keyof typeof NAMED_RIGHTS ? (typeof NAMED_RIGHTS)[N][number]['key'] : never;

export function namedRightsOf(name: string): readonly { key: string; label: string }[] {
  // Own keys only: a name such as `toString` is no restriction, not Object.prototype's function.
  return Object.hasOwn(NAMED_RIGHTS, name) ? ((NAMED_RIGHTS as Partial<Record<string, readonly { key: string; label: string }[]>>)[name] ?? []) : [];
}

export interface RestrictionEntry {
  name: RestrictionName;
  canView: boolean;
  canEdit: boolean;
  /** Named rights held under this name (see NAMED_RIGHTS); they need canView too. */
  rights?: string[];
}

/** What a page (or endpoint) allows the current admin to do. */
export interface PageAccess {
  canView: boolean;
  canEdit: boolean;
  /** Named rights held on this page's restriction name; every one for the super admin. */
  rights?: readonly string[];
}
