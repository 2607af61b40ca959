import { findRoute, SIDEBAR_ENTRIES, SIDEBAR_GROUPS, visibleSidebar, type AccessSubject, type RouteDef, type SidebarGroup } from '@pitboss/contract';

export interface SidebarSection {
  group: SidebarGroup;
  entries: RouteDef[];
  /** A group that is one page in the seed's table (Dashboard, Reward Card, ...) shows as a single link. */
  single: boolean;
}

const SINGLE_LINK_GROUPS: ReadonlySet<string> = new Set(
  SIDEBAR_GROUPS.filter((g) => {
    const entries = SIDEBAR_ENTRIES.filter((e) => e.group === g);
    return entries.length === 1 && entries[0]!.label === g;
  }),
);

/** The sidebar as this admin sees it: groups in order, each with the entries they may view; empty groups left out. */
export function sidebarSections(admin: AccessSubject): SidebarSection[] {
  const entries = visibleSidebar(admin);
  return SIDEBAR_GROUPS.map((group) => {
    const items = entries.filter((e) => e.group === group);
    return { group, entries: items, single: SINGLE_LINK_GROUPS.has(group) && items.length === 1 };
  }).filter((s) => s.entries.length > 0);
}

/**
 * The entry to highlight: the page itself, or the list page of the same module (e.g. /update-faq/3 →
 * FAQ). Where one restriction name has several entries, the list named like the page wins
 * (/update-market/3 → /markets, not /market-overview).
 */
export function activeEntry(entries: readonly RouteDef[], pathname: string): RouteDef | undefined {
  const route = findRoute(pathname);
  if (!route) return undefined;
  const own = entries.find((e) => e.path === route.path);
  if (own || !route.restriction) return own;
  const siblings = entries.filter((e) => e.restriction === route.restriction);
  const noun = route.path.split('/')[1]!.replace(/^(add|update)-/, '').toLowerCase();
  const exact = siblings.find((e) => [`/${noun}`, `/${noun}s`].includes(e.path.toLowerCase()));
  if (exact) return exact;
  // `/event-resolution/4` under Markets: the entry sharing a word with it (`/resolution-history`).
  const words = noun.split('-');
  const related = siblings.find((e) => e.path.toLowerCase().slice(1).split('-').some((w) => words.includes(w) || words.some((x) => `${x}s` === w)));
  return related ?? siblings[0];
}
