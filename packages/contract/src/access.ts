import { SUPERADMIN_ROLE } from './constants.js';
import { namedRightsOf, type PageAccess, type RestrictionEntry, type RestrictionName } from './restrictions.js';
import { findRoute, SIDEBAR_ENTRIES, SKIP_CHECK_PATHS, type RouteDef } from './routes.js';

/** The part of an admin the access rules read. */
export interface AccessSubject {
  role: string;
  restriction: readonly RestrictionEntry[];
}

export type NavigationDecision =
  | { allowed: true; access: PageAccess; route: RouteDef | undefined }
  | { allowed: false; redirectTo: string };

const FULL: PageAccess = { canView: true, canEdit: true };
const NONE: PageAccess = { canView: false, canEdit: false };

export function isSuperAdmin(subject: Pick<AccessSubject, 'role'>): boolean {
  return subject.role === SUPERADMIN_ROLE;
}

/** The admin's access to one restriction name; the super admin has everything. */
export function accessFor(subject: AccessSubject, restriction: RestrictionName): PageAccess {
  if (isSuperAdmin(subject)) return { ...FULL, rights: namedRightsOf(restriction).map((r) => r.key) };
  const entry = subject.restriction.find((e) => e.name === restriction);
  if (entry?.canView !== true) return NONE;
  return { canView: true, canEdit: entry.canEdit === true, rights: entry.rights ?? [] };
}

/**
 * The first grant in `grants` that gives more than `subject` holds (view, edit or a named right),
 * or null. A sub-admin grants only what they hold, and manages only admins who hold no more.
 */
export function firstExceedingGrant(subject: AccessSubject, grants: readonly RestrictionEntry[]): RestrictionEntry | null {
  for (const g of grants) {
    const own = accessFor(subject, g.name);
    if ((g.canView && !own.canView) || (g.canEdit && !own.canEdit) || (g.rights ?? []).some((r) => !(own.rights ?? []).includes(r))) return g;
  }
  return null;
}

/** Whether the admin holds a named right (it needs canView on the name too). */
export function hasRight(subject: AccessSubject, restriction: RestrictionName, right: string): boolean {
  const access = accessFor(subject, restriction);
  return access.canView && (access.rights ?? []).includes(right);
}

/** First sidebar entry (with a restriction name) the admin may view, or `/dashboard`. */
export function firstAllowedPath(subject: AccessSubject): string {
  for (const entry of SIDEBAR_ENTRIES) {
    if (!entry.restriction) continue;
    if (accessFor(subject, entry.restriction).canView) return entry.path;
  }
  return '/dashboard';
}

/** The sidebar as this admin sees it: entries they may view, in order. */
export function visibleSidebar(subject: AccessSubject): RouteDef[] {
  return SIDEBAR_ENTRIES.filter(
    (entry) => (!entry.restriction || accessFor(subject, entry.restriction).canView) && (!entry.forRights || entry.forRights.some((x) => hasRight(subject, x.restriction, x.right))),
  );
}

/**
 * The access check run on each navigation (seed §4, ACCESS.md):
 * super admin bypass → skip list → match the route (`{id}` segments) and its
 * restriction entry → canView allows and yields the page's access → otherwise
 * redirect to the first sidebar entry the admin may view, or `/dashboard`.
 */
export function checkNavigation(subject: AccessSubject, path: string): NavigationDecision {
  const route = findRoute(path);
  // The super admin holds every right, named ones included (the page's buttons read them).
  if (isSuperAdmin(subject)) return { allowed: true, access: route?.restriction ? accessFor(subject, route.restriction) : FULL, route };
  if ((SKIP_CHECK_PATHS as readonly string[]).includes(route?.path ?? path)) return { allowed: true, access: FULL, route };
  // Pages with no restriction name (dashboard, open, account and unknown paths, which render 404) apply no check.
  if (!route?.restriction) return { allowed: true, access: FULL, route };
  const access = accessFor(subject, route.restriction);
  if (access.canView) return { allowed: true, access, route };
  return { allowed: false, redirectTo: firstAllowedPath(subject) };
}

export type ApiAccessKind = 'read' | 'write';

/** The server's rule: reads need canView, writes need canEdit (and canView), a named right needs itself (and canView). */
export function canUseApi(subject: AccessSubject, restriction: RestrictionName, kind: ApiAccessKind, right?: string): boolean {
  if (right) return hasRight(subject, restriction, right);
  const access = accessFor(subject, restriction);
  return kind === 'read' ? access.canView : access.canView && access.canEdit;
}
