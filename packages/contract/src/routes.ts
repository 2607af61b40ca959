import { PUBLIC_ROUTES } from './public-routes.js';

export { toRouterPath } from './public-routes.js';
import type { RestrictionName } from './restrictions.js';

/**
 * The route table of ACCESS.md, held once. The web router, the sidebar, the
 * access guard, the permission catalogue and the API's permission test all
 * read it.
 */
export type RouteKind = 'public' | 'open' | 'account' | 'dashboard' | 'private';

export interface RouteDef {
  path: string;
  kind: RouteKind;
  title: string;
  restriction?: RestrictionName;
  /** Sidebar group and label when the page has a sidebar entry. */
  group?: string;
  label?: string;
  /** A page open to every admin whose sidebar entry shows only to those holding one of these named rights (what it lists needs one). */
  forRights?: readonly { restriction: RestrictionName; right: string }[];
}

/** Sidebar groups in display order: the seed's table first, then the groups this product adds. */
export const SIDEBAR_GROUPS = [
  'Dashboard', 'Awaiting my approval', 'User Management', 'Coin', 'Crypto Payment', 'Fiat Payment', 'Card', 'Booster Pack', 'Reward Card',
  'Support', 'Offline Store', 'Templates & CMS', 'Site Setting', 'Admin Settings', 'Admin controller',
  'Markets & Trading', 'Reports',
] as const;
export type SidebarGroup = (typeof SIDEBAR_GROUPS)[number];

/** Permission-catalogue module of each restriction name (a sub module belongs to one module). */
export const RESTRICTION_MODULE: Record<RestrictionName, SidebarGroup> = {
  Users: 'User Management',
  'Coin List': 'Coin',
  Deposit: 'Crypto Payment',
  Withdraw: 'Crypto Payment',
  Reconciliation: 'Crypto Payment',
  'Payment History': 'Fiat Payment',
  CardTier: 'Card',
  Category: 'Card',
  Character: 'Card',
  'Booster Packs': 'Booster Pack',
  Boostercards: 'Booster Pack',
  Rewardcards: 'Reward Card',
  'Support category': 'Support',
  'Support Ticket': 'Support',
  'Support Reply': 'Support',
  OfflineStore: 'Offline Store',
  'Email Templates': 'Templates & CMS',
  'CMS Pages': 'Templates & CMS',
  'Crypto Reward Card CMS': 'Templates & CMS',
  'Site Setting': 'Site Setting',
  'Ip Address': 'Admin Settings',
  'Wallet Address': 'Admin Settings',
  'Whitelist Wallet Address': 'Admin Settings',
  FAQ: 'Admin Settings',
  Tags: 'Admin Settings',
  'Sub Admin': 'Admin controller',
  Modules: 'Admin controller',
  'Sub Modules': 'Admin controller',
  'Audit Log': 'Admin controller',
  Series: 'Markets & Trading',
  Events: 'Markets & Trading',
  Markets: 'Markets & Trading',
  'Trade Bot': 'Markets & Trading',
  'Trade History': 'Markets & Trading',
  'Admin Profit': 'Reports',
  Notification: 'Reports',
};

/** The named rights whose decisions may take two admins (four eyes): their holders see the approval queue. */
export const SECOND_APPROVAL_RIGHTS = [{ restriction: 'Withdraw', right: 'approve' }, { restriction: 'Users', right: 'adjust-balance' }, { restriction: 'Markets', right: 'resolve' }] as const satisfies readonly { restriction: RestrictionName; right: string }[];

const r = (path: string, kind: RouteKind, title: string, restriction?: RestrictionName, group?: SidebarGroup, label?: string): RouteDef => {
  const def: RouteDef = { path, kind, title };
  if (restriction) def.restriction = restriction;
  if (group) def.group = group;
  if (label) def.label = label;
  return def;
};

/** Sidebar order is the order of the entries with a `group` in this list. */
export const ROUTES: readonly RouteDef[] = [
  // public (auth) and open pages, held apart for the sign-in page's first load
  ...PUBLIC_ROUTES,
  // account pages (skip the check)
  r('/profile', 'account', 'Profile'),
  r('/changePassword', 'account', 'Change password'),
  r('/2fa-settings', 'account', 'Two-factor authentication'),
  r('/loginHistory', 'account', 'Login history'),
  // sidebar, in the seed's order
  r('/dashboard', 'dashboard', 'Dashboard', undefined, 'Dashboard', 'Dashboard'),
  // Added: what waits for the signed-in admin's second approval (every admin; the list holds what they may decide).
  { ...r('/awaiting-approval', 'dashboard', 'Awaiting my approval', undefined, 'Awaiting my approval', 'Awaiting my approval'), forRights: SECOND_APPROVAL_RIGHTS },
  r('/user-list', 'private', 'Users', 'Users', 'User Management', 'Users'),
  // Added: manual balance corrections, with their second approvals and reversals.
  r('/balance-adjustments', 'private', 'Balance adjustments', 'Users', 'User Management', 'Balance adjustments'),
  r('/coin-list', 'private', 'Coin list', 'Coin List', 'Coin', 'Coin List'),
  r('/deposit', 'private', 'Deposits', 'Deposit', 'Crypto Payment', 'Deposit'),
  r('/withdraw', 'private', 'Withdrawals', 'Withdraw', 'Crypto Payment', 'Withdraw'),
  // Added: ledger, records and the custody balance the platform reports, per coin (checks, and per day).
  r('/reconciliation', 'private', 'Reconciliation', 'Reconciliation', 'Crypto Payment', 'Reconciliation'),
  r('/reconciliation-by-day', 'private', 'Reconciliation by day', 'Reconciliation', 'Crypto Payment', 'Reconciliation by Day'),
  r('/payment-history', 'private', 'Payment history', 'Payment History', 'Fiat Payment', 'Payment History'),
  r('/card-tier', 'private', 'Card tiers', 'CardTier', 'Card', 'Card Tier'),
  r('/card-category', 'private', 'Card categories', 'Category', 'Card', 'Card Category'),
  r('/card-characters', 'private', 'Card characters', 'Character', 'Card', 'Card Characters'),
  // Added: the cards users own (also a tab on each user's and each character's page).
  r('/owned-cards', 'private', 'Owned cards', 'Character', 'Card', 'Owned Cards'),
  r('/update-booster-pack', 'private', 'Booster pack settings', 'Booster Packs', 'Booster Pack', 'Settings'),
  r('/booster-pack-cards', 'private', 'Booster packs', 'Boostercards', 'Booster Pack', 'Booster Packs'),
  r('/reward-cards', 'private', 'Reward cards', 'Rewardcards', 'Reward Card', 'Reward Card'),
  r('/support-category', 'private', 'Support categories', 'Support category', 'Support', 'Support Category'),
  r('/ticket-list', 'private', 'Support tickets', 'Support Ticket', 'Support', 'Support Ticket'),
  r('/offline-store', 'private', 'Offline stores', 'OfflineStore', 'Offline Store', 'Offline Store'),
  r('/email-template-list', 'private', 'Email templates', 'Email Templates', 'Templates & CMS', 'Email Templates'),
  r('/cms-list', 'private', 'CMS pages', 'CMS Pages', 'Templates & CMS', 'CMS Pages'),
  r('/crypto-rewardcard-cms', 'private', 'Reward card CMS', 'Crypto Reward Card CMS', 'Templates & CMS', 'Reward Card CMS'),
  r('/mail-outbox', 'private', 'Mail outbox', 'Email Templates', 'Templates & CMS', 'Mail Outbox'),
  r('/site-setting', 'private', 'Site settings', 'Site Setting', 'Site Setting', 'Site Setting'),
  r('/ip-address', 'private', 'Blocked IPs', 'Ip Address', 'Admin Settings', 'Block IP'),
  r('/wallet-address', 'private', 'Blocked wallets', 'Wallet Address', 'Admin Settings', 'Block Wallet'),
  r('/white-list', 'private', 'Whitelisted wallets', 'Whitelist Wallet Address', 'Admin Settings', 'Whitelist Wallet'),
  r('/faq', 'private', 'FAQ', 'FAQ', 'Admin Settings', 'FAQ'),
  r('/tags', 'private', 'Tags', 'Tags', 'Admin Settings', 'Tags'),
  r('/sub-admin', 'private', 'Sub admins', 'Sub Admin', 'Admin controller', 'Sub Admin'),
  r('/modules', 'private', 'Modules', 'Modules', 'Admin controller', 'Modules'),
  r('/sub-modules', 'private', 'Sub modules', 'Sub Modules', 'Admin controller', 'Sub Modules'),
  r('/sub-Admin-login-History', 'private', 'Sub-admin login history', 'Sub Admin', 'Admin controller', 'Sub-admin Logins'),
  r('/audit-log', 'private', 'Audit log', 'Audit Log', 'Admin controller', 'Audit Log'),
  r('/market-overview', 'private', 'Market overview', 'Markets', 'Markets & Trading', 'Market Overview'),
  r('/series', 'private', 'Series', 'Series', 'Markets & Trading', 'Series'),
  r('/events', 'private', 'Events', 'Events', 'Markets & Trading', 'Events'),
  // Added: the markets catalogue across events (a market is created under its event).
  r('/markets', 'private', 'Markets', 'Markets', 'Markets & Trading', 'Markets'),
  r('/unresolved-markets', 'private', 'Unresolved markets', 'Markets', 'Markets & Trading', 'Unresolved Markets'),
  // Added: what each unsettled market holds and owes, and the house's profit or loss either way.
  r('/market-liability', 'private', 'Market liability', 'Markets', 'Markets & Trading', 'Market Liability'),
  r('/resolution-history', 'private', 'Resolution history', 'Markets', 'Markets & Trading', 'Resolution History'),
  r('/trade-history', 'private', 'Trade history', 'Trade History', 'Markets & Trading', 'Trade History'),
  // Added: surveillance of trades between parties that look like one (same user, signup IP or wallet).
  r('/wash-trade-candidates', 'private', 'Wash-trade candidates', 'Trade History', 'Markets & Trading', 'Wash-trade Candidates'),
  r('/order-history', 'private', 'Order history', 'Trade History', 'Markets & Trading', 'Order History'),
  r('/open-positions', 'private', 'Open positions', 'Trade History', 'Markets & Trading', 'Open Positions'),
  r('/closed-positions', 'private', 'Closed positions', 'Trade History', 'Markets & Trading', 'Closed Positions'),
  r('/trade-bot', 'private', 'Trade bots', 'Trade Bot', 'Markets & Trading', 'Trade Bot'),
  // Added: halt every open market and stop every bot at once (Markets › kill-switch), and resume exactly that.
  r('/kill-switch', 'private', 'Kill switch', 'Markets', 'Markets & Trading', 'Kill Switch'),
  r('/signup-report', 'private', 'Signup report', 'Users', 'Reports', 'Signup Report'),
  r('/admin-profit', 'private', 'Admin profit', 'Admin Profit', 'Reports', 'Admin Profit'),
  r('/notification', 'private', 'Notifications', 'Notification', 'Reports', 'Notifications'),
  // other private pages (no sidebar entry)
  r('/add-admin', 'private', 'Add sub admin', 'Sub Admin'),
  r('/update-admin/{id}', 'private', 'Update sub admin', 'Sub Admin'),
  r('/add-modules', 'private', 'Add module', 'Modules'),
  r('/update-modules/{id}', 'private', 'Update module', 'Modules'),
  r('/add-sub-modules', 'private', 'Add sub module', 'Sub Modules'),
  r('/update-sub-modules/{id}', 'private', 'Update sub module', 'Sub Modules'),
  r('/add-tier', 'private', 'Add card tier', 'CardTier'),
  r('/update-tier/{id}', 'private', 'Update card tier', 'CardTier'),
  r('/add-tag', 'private', 'Add tag', 'Tags'),
  r('/update-tag/{id}', 'private', 'Update tag', 'Tags'),
  r('/add-block-ip', 'private', 'Block an IP', 'Ip Address'),
  r('/update-block-ip/{id}', 'private', 'Update blocked IP', 'Ip Address'),
  r('/add-wallet-address', 'private', 'Block a wallet', 'Wallet Address'),
  r('/update-wallet-address/{id}', 'private', 'Update blocked wallet', 'Wallet Address'),
  r('/add-white-list', 'private', 'Whitelist a wallet', 'Whitelist Wallet Address'),
  r('/update-white-list/{id}', 'private', 'Update whitelisted wallet', 'Whitelist Wallet Address'),
  r('/add-faq', 'private', 'Add FAQ', 'FAQ'),
  r('/update-faq/{id}', 'private', 'Update FAQ', 'FAQ'),
  r('/add-support-category', 'private', 'Add support category', 'Support category'),
  r('/update-support-category/{id}', 'private', 'Update support category', 'Support category'),
  r('/support-reply/{id}', 'private', 'Support conversation', 'Support Reply'),
  r('/add-category', 'private', 'Add card category', 'Category'),
  r('/update-category/{id}', 'private', 'Update card category', 'Category'),
  r('/add-character', 'private', 'Add card character', 'Character'),
  r('/update-character/{id}', 'private', 'Update card character', 'Character'),
  // Added: a new block of the public reward-card page (the seed lists the list and update pages).
  r('/add-crypto-rewardcard-cms', 'private', 'Add reward card page block', 'Crypto Reward Card CMS'),
  r('/add-event', 'private', 'Add event', 'Events'),
  r('/update-event/{id}', 'private', 'Update event', 'Events'),
  r('/event-resolution/{id}', 'private', 'Resolve event', 'Markets'),
  r('/event-history/{id}', 'private', 'Event history', 'Events'),
  r('/add-market', 'private', 'Add market', 'Markets'),
  r('/engage-kill-switch', 'private', 'Engage the kill switch', 'Markets'),
  r('/reconcile-now', 'private', 'Reconcile now', 'Reconciliation'),
  r('/update-market/{id}', 'private', 'Update market', 'Markets'),
  r('/add-series', 'private', 'Add series', 'Series'),
  r('/update-series/{id}', 'private', 'Update series', 'Series'),
  r('/add-trade-bot', 'private', 'Add trade bot', 'Trade Bot'),
  r('/update-trade-bot/{id}', 'private', 'Update trade bot', 'Trade Bot'),
  r('/user-history/{userid}', 'private', 'User history', 'Users'),
  r('/updatetemplate/{id}', 'private', 'Update email template', 'Email Templates'),
  r('/add-cms', 'private', 'Add CMS page', 'CMS Pages'),
  r('/update-cms/{id}', 'private', 'Update CMS page', 'CMS Pages'),
  r('/crypto-rewardcard-cms-update/{id}', 'private', 'Update reward card CMS block', 'Crypto Reward Card CMS'),
  r('/update-coin/{id}', 'private', 'Update coin', 'Coin List'),
  r('/booster-pack-cards/{id}', 'private', 'Booster pack history', 'Boostercards'),
  r('/add-booster-pack-card', 'private', 'Add booster pack', 'Boostercards'),
  r('/pack-purchases', 'private', 'Pack purchases', 'Boostercards'),
  r('/pack-openings', 'private', 'Pack openings', 'Boostercards'),
  r('/store-allocations', 'private', 'Store pack allocations', 'OfflineStore'),
  r('/add-pack-offline-store', 'private', 'Allocate packs to a store', 'OfflineStore'),
  r('/store-codes', 'private', 'Redemption codes', 'OfflineStore'),
  r('/reward-grants', 'private', 'Rewards granted', 'Rewardcards'),
  r('/update-pack-offline-store/{id}', 'private', 'Store pack allocation', 'OfflineStore'),
  r('/add-reward-card', 'private', 'Add reward card', 'Rewardcards'),
  r('/update-reward-card/{id}', 'private', 'Update reward card', 'Rewardcards'),
  r('/add-offline-store', 'private', 'Add offline store', 'OfflineStore'),
  r('/update-offline-store/{id}', 'private', 'Update offline store', 'OfflineStore'),
];

export const SIDEBAR_ENTRIES: readonly RouteDef[] = ROUTES.filter((x) => x.group !== undefined);

/** Paths that skip the access check (seed §4), letter for letter. */
export const SKIP_CHECK_PATHS = ['/login', '/register', '/profile', '/404', '/changePassword', '/2fa-settings', '/loginHistory'] as const;

/** Matches a concrete path against a route pattern; `{id}`-style segments match any one segment. */
export function matchRoutePattern(pattern: string, path: string): boolean {
  const a = pattern.split('/');
  const b = stripTrailingSlash(path).split('/');
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const seg = a[i]!;
    if (seg.startsWith('{') && seg.endsWith('}')) {
      if (b[i] === '') return false;
      continue;
    }
    // React Router matches paths without regard to case, so the check must too.
    if (seg.toLowerCase() !== b[i]!.toLowerCase()) return false;
  }
  return true;
}

function stripTrailingSlash(path: string): string {
  const p = path.split('?')[0]!.split('#')[0]!.replace(/\/{2,}/g, '/');
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

export function findRoute(path: string): RouteDef | undefined {
  return ROUTES.find((route) => matchRoutePattern(route.path, path));
}


/** Fills a pattern's `{param}` segments. */
/** The path of one record's page: the pattern's single placeholder (`{id}`, `{userid}`…) is the id. */
export function recordPath(pattern: string, id: string): string {
  return pattern.replace(/\{\w+\}/, encodeURIComponent(id));
}

export function buildPath(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(String(params[key] ?? '')));
}
