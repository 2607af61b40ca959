import { describe, expect, it } from 'vitest';
import {
  ADDED_RESTRICTION_NAMES, SEED_RESTRICTION_NAMES, ROUTES, SIDEBAR_ENTRIES, RESTRICTION_MODULE,
  accessFor, checkNavigation, canUseApi, firstExceedingGrant, namedRightsOf, NAMED_RIGHTS, RESOURCES, firstAllowedPath, findRoute, matchRoutePattern, visibleSidebar, toRouterPath,
  TOAST_SUCCESS_MS, TOAST_ERROR_MS, TOAST_LIMIT, TOKEN_STORAGE_KEY, UNAUTHORIZED_REDIRECT_DELAY_MS, TIME_IN_FORCE_LABELS, columnValueLabel, filterOptions,
  type RestrictionEntry,
} from '../src/index.js';

const sub = (restriction: RestrictionEntry[]) => ({ role: 'subadmin', restriction });
const superAdmin = { role: 'superadmin', restriction: [] };

describe('route table', () => {
  it('keeps the 32 seed restriction names letter for letter', () => {
    expect(SEED_RESTRICTION_NAMES).toHaveLength(32);
    expect(SEED_RESTRICTION_NAMES).toContain('Whitelist Wallet Address');
    expect(SEED_RESTRICTION_NAMES).toContain('Support category');
    expect(SEED_RESTRICTION_NAMES).toContain('Ip Address');
    expect(ADDED_RESTRICTION_NAMES).toEqual(['Withdraw', 'Trade History', 'Audit Log', 'Reconciliation']);
  });

  it('registers every route of the seed', () => {
    const seedPaths = [
      '/login', '/forgetPassword', '/verification/forgotPassword', '/404', '/500', '/dashboard', '/user-list', '/coin-list', '/deposit',
      '/withdraw', '/payment-history', '/card-tier', '/card-category', '/card-characters', '/update-booster-pack', '/booster-pack-cards',
      '/reward-cards', '/support-category', '/ticket-list', '/offline-store', '/email-template-list', '/cms-list', '/crypto-rewardcard-cms',
      '/site-setting', '/ip-address', '/wallet-address', '/white-list', '/faq', '/sub-admin', '/modules', '/sub-modules', '/profile',
      '/changePassword', '/loginHistory', '/sub-Admin-login-History', '/2fa-settings', '/notification', '/admin-profit', '/add-admin',
      '/update-admin/{id}', '/add-modules', '/update-modules/{id}', '/add-sub-modules', '/update-sub-modules/{id}', '/add-tier',
      '/update-tier/{id}', '/tags', '/add-tag', '/update-tag/{id}', '/add-block-ip', '/update-block-ip/{id}', '/add-wallet-address',
      '/update-wallet-address/{id}', '/add-white-list', '/update-white-list/{id}', '/add-faq', '/update-faq/{id}', '/add-support-category',
      '/update-support-category/{id}', '/support-reply/{id}', '/add-category', '/update-category/{id}', '/add-character',
      '/update-character/{id}', '/market-overview', '/events', '/add-event', '/update-event/{id}', '/event-resolution/{id}',
      '/event-history/{id}', '/unresolved-markets', '/resolution-history', '/series', '/add-series', '/update-series/{id}', '/trade-history',
      '/order-history', '/open-positions', '/closed-positions', '/trade-bot', '/add-trade-bot', '/update-trade-bot/{id}', '/signup-report',
      '/user-history/{userid}', '/updatetemplate/{id}', '/add-cms', '/update-cms/{id}', '/crypto-rewardcard-cms-update/{id}',
      '/update-coin/{id}', '/booster-pack-cards/{id}', '/update-pack-offline-store/{id}', '/add-reward-card', '/update-reward-card/{id}',
      '/add-offline-store', '/update-offline-store/{id}',
    ];
    const paths = ROUTES.map((r) => r.path);
    for (const p of seedPaths) expect(paths).toContain(p);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('gives every private page a restriction name and every name a module', () => {
    for (const route of ROUTES.filter((r) => r.kind === 'private')) expect(route.restriction, route.path).toBeDefined();
    for (const route of ROUTES) if (route.restriction) expect(RESTRICTION_MODULE[route.restriction]).toBeDefined();
  });

  it('keeps the seed sidebar order, starting with the dashboard', () => {
    expect(SIDEBAR_ENTRIES[0]!.path).toBe('/dashboard');
    const groups = [...new Set(SIDEBAR_ENTRIES.map((e) => e.group))];
    expect(groups.slice(0, 15)).toEqual([
      'Dashboard', 'Awaiting my approval', 'User Management', 'Coin', 'Crypto Payment', 'Fiat Payment', 'Card', 'Booster Pack', 'Reward Card', 'Support',
      'Offline Store', 'Templates & CMS', 'Site Setting', 'Admin Settings', 'Admin controller',
    ]);
  });

  it('matches {id} segments and nothing else', () => {
    expect(matchRoutePattern('/update-admin/{id}', '/update-admin/42')).toBe(true);
    expect(matchRoutePattern('/update-admin/{id}', '/update-admin/')).toBe(false);
    expect(matchRoutePattern('/update-admin/{id}', '/update-admin/4/2')).toBe(false);
    expect(matchRoutePattern('/faq', '/faq/')).toBe(true);
    expect(findRoute('/booster-pack-cards/7')!.restriction).toBe('Boostercards');
    expect(findRoute('/booster-pack-cards')!.restriction).toBe('Boostercards');
    expect(toRouterPath('/user-history/{userid}')).toBe('/user-history/:userid');
  });
});

describe('navigation check (seed §4)', () => {
  it('lets the super admin through everywhere with canView and canEdit true', () => {
    expect(checkNavigation(superAdmin, '/sub-admin')).toMatchObject({ allowed: true, access: { canView: true, canEdit: true } });
    // Named rights included: the withdrawal page shows the super admin Approve and Reject.
    expect(checkNavigation(superAdmin, '/withdraw')).toMatchObject({ allowed: true, access: { canView: true, canEdit: true, rights: ['approve'] } });
  });

  it('skips the check on the skip list', () => {
    for (const p of ['/login', '/register', '/profile', '/404', '/changePassword', '/2fa-settings', '/loginHistory']) {
      expect(checkNavigation(sub([]), p).allowed).toBe(true);
    }
  });

  it('allows with canView and stores the page access with canEdit as granted', () => {
    const admin = sub([{ name: 'Ip Address', canView: true, canEdit: false }]);
    expect(checkNavigation(admin, '/update-block-ip/9')).toEqual({
      allowed: true, access: { canView: true, canEdit: false, rights: [] }, route: findRoute('/update-block-ip/9'),
    });
  });

  it('denies without canView and sends to the first sidebar entry the admin may view', () => {
    const admin = sub([
      { name: 'FAQ', canView: true, canEdit: true },
      { name: 'Ip Address', canView: true, canEdit: false },
      { name: 'Sub Admin', canView: false, canEdit: true },
    ]);
    expect(checkNavigation(admin, '/sub-admin')).toEqual({ allowed: false, redirectTo: '/ip-address' });
    expect(firstAllowedPath(admin)).toBe('/ip-address');
  });

  it('falls back to /dashboard when no sidebar entry is viewable', () => {
    expect(checkNavigation(sub([]), '/user-list')).toEqual({ allowed: false, redirectTo: '/dashboard' });
  });

  it('checks paths the way the router matches them: any case, doubled slashes', () => {
    const viewer = sub([{ name: 'FAQ', canView: true, canEdit: false }]);
    expect(checkNavigation(viewer, '/SUB-ADMIN')).toEqual({ allowed: false, redirectTo: '/faq' });
    expect(checkNavigation(viewer, '//sub-admin')).toEqual({ allowed: false, redirectTo: '/faq' });
    expect(checkNavigation(viewer, '/Faq')).toMatchObject({ allowed: true, access: { canView: true, canEdit: false } });
  });

  it('never denies the dashboard', () => {
    expect(checkNavigation(sub([]), '/dashboard').allowed).toBe(true);
  });

  it('filters the sidebar by canView', () => {
    const admin = sub([{ name: 'FAQ', canView: true, canEdit: true }, { name: 'Users', canView: false, canEdit: false }]);
    expect(visibleSidebar(admin).map((e) => e.path)).toEqual(['/dashboard', '/faq']);
    // The approval queue shows to those who may give a second approval.
    const approver = sub([{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }]);
    expect(visibleSidebar(approver).map((e) => e.path)).toEqual(['/dashboard', '/awaiting-approval', '/withdraw']);
  });
});

describe('API rule', () => {
  it('reads need canView, writes need canEdit, the super admin needs nothing', () => {
    const viewOnly = sub([{ name: 'FAQ', canView: true, canEdit: false }]);
    const editor = sub([{ name: 'FAQ', canView: true, canEdit: true }]);
    expect(canUseApi(viewOnly, 'FAQ', 'read')).toBe(true);
    expect(canUseApi(viewOnly, 'FAQ', 'write')).toBe(false);
    expect(canUseApi(editor, 'FAQ', 'write')).toBe(true);
    expect(canUseApi(sub([]), 'FAQ', 'read')).toBe(false);
    expect(canUseApi(superAdmin, 'FAQ', 'write')).toBe(true);
  });

  it('a named right is needed for itself: edit does not give it, it does not give edit, it needs view', () => {
    const editor = sub([{ name: 'Withdraw', canView: true, canEdit: true }]);
    const approver = sub([{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }]);
    const noView = sub([{ name: 'Withdraw', canView: false, canEdit: false, rights: ['approve'] }]);
    expect(canUseApi(editor, 'Withdraw', 'write', 'approve')).toBe(false);
    expect(canUseApi(approver, 'Withdraw', 'write', 'approve')).toBe(true);
    expect(canUseApi(approver, 'Withdraw', 'write')).toBe(false);
    expect(canUseApi(noView, 'Withdraw', 'write', 'approve')).toBe(false);
    expect(canUseApi(superAdmin, 'Withdraw', 'write', 'approve')).toBe(true);
    expect(accessFor(superAdmin, 'Withdraw').rights).toEqual(namedRightsOf('Withdraw').map((r) => r.key));
  });

  it('finds the grant that exceeds what an admin holds, named rights included', () => {
    const approver = sub([{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }]);
    expect(firstExceedingGrant(approver, [{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }])).toBeNull();
    expect(firstExceedingGrant(sub([{ name: 'Withdraw', canView: true, canEdit: true }]), [{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }])?.name).toBe('Withdraw');
    expect(firstExceedingGrant(approver, [{ name: 'Withdraw', canView: true, canEdit: true }])?.name).toBe('Withdraw');
  });

  it('every named right is used by some declared action, and every action names a declared right', () => {
    const used = new Set(Object.values(RESOURCES).flatMap((spec) => (spec.actions ?? []).flatMap((a) => (typeof a.right === 'object' ? [`${spec.restriction}:${a.right.named}`] : []))));
    const declared = Object.entries(NAMED_RIGHTS).flatMap(([name, rights]) => rights.map((r) => `${name}:${r.key}`));
    for (const u of used) expect(declared).toContain(u);
    expect(declared.filter((d) => !used.has(d))).toEqual([]);
  });
});

describe('constants (seed §4, §9)', () => {
  it('holds the seed values', () => {
    expect([TOAST_SUCCESS_MS, TOAST_ERROR_MS, TOAST_LIMIT, TOKEN_STORAGE_KEY, UNAUTHORIZED_REDIRECT_DELAY_MS]).toEqual([2000, 4000, 20, 'admin_token', 500]);
    expect(TIME_IN_FORCE_LABELS).toEqual({ GTC: "Good 'Til Canceled", IOC: 'Immediate Or Cancel', GTD: "Good 'Til Date" });
  });

  it('shows order time-in-force codes as their labels, in the orders filter and column (the code on hover)', () => {
    const orders = RESOURCES.orders!;
    const filter = orders.filters.find((f) => f.key === 'timeInForce')!;
    const column = orders.columns.find((c) => c.key === 'timeInForce')!;
    for (const [code, label] of Object.entries(TIME_IN_FORCE_LABELS)) {
      expect(filterOptions(filter)?.find((o) => o.value === code)?.label).toBe(label);
      expect(columnValueLabel(orders, column, code)).toBe(label);
    }
    expect(columnValueLabel(orders, column, 'FOK')).toBe('Fill Or Kill');
  });
});

describe('namedRightsOf', () => {
  it('knows only restriction names, never an Object.prototype key', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) expect(namedRightsOf(name)).toEqual([]);
    expect(namedRightsOf('Withdraw').length).toBeGreaterThan(0);
  });
});
