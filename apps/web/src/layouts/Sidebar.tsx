import { NavLink, ScrollArea } from '@mantine/core';
import { findRoute, SIDEBAR_ENTRIES, SIDEBAR_GROUPS, visibleSidebar, type AccessSubject, type RouteDef, type SidebarGroup } from '@pitboss/contract';
import {
  IconAddressBook,
  IconBuildingStore,
  IconCards,
  IconChartCandle,
  IconCoin,
  IconCreditCard,
  IconCurrencyBitcoin,
  IconFileText,
  IconGauge,
  IconGift,
  IconHeadset,
  IconPackage,
  IconReportAnalytics,
  IconSettings,
  IconShieldLock,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';

const GROUP_ICONS: Record<SidebarGroup, Icon> = {
  Dashboard: IconGauge,
  'User Management': IconUsers,
  Coin: IconCoin,
  'Crypto Payment': IconCurrencyBitcoin,
  'Fiat Payment': IconCreditCard,
  Card: IconCards,
  'Booster Pack': IconPackage,
  'Reward Card': IconGift,
  Support: IconHeadset,
  'Offline Store': IconBuildingStore,
  'Templates & CMS': IconFileText,
  'Site Setting': IconSettings,
  'Admin Settings': IconShieldLock,
  'Admin controller': IconAddressBook,
  'Markets & Trading': IconChartCandle,
  Reports: IconReportAnalytics,
};

/** Groups that are one page in the seed's table (Dashboard, Reward Card, ...) show as a single link. */
const SINGLE_LINK_GROUPS = new Set(
  SIDEBAR_GROUPS.filter((g) => {
    const entries = SIDEBAR_ENTRIES.filter((e) => e.group === g);
    return entries.length === 1 && entries[0]!.label === g;
  }),
);

/** The entry to highlight: the page itself, or the list page of the same module (e.g. /update-faq/3 → FAQ). */
export function activeEntry(entries: readonly RouteDef[], pathname: string): RouteDef | undefined {
  const route = findRoute(pathname);
  if (!route) return undefined;
  return entries.find((e) => e.path === route.path) ?? (route.restriction ? entries.find((e) => e.restriction === route.restriction) : undefined);
}

export function Sidebar({ admin, pathname, onNavigate }: { admin: AccessSubject; pathname: string; onNavigate?: () => void }) {
  const entries = useMemo(() => visibleSidebar(admin), [admin]);
  const groups = useMemo(
    () => SIDEBAR_GROUPS.map((group) => ({ group, entries: entries.filter((e) => e.group === group) })).filter((g) => g.entries.length > 0),
    [entries],
  );
  const active = activeEntry(entries, pathname);
  const activeGroup = active?.group;
  const [openGroups, setOpenGroups] = useState<ReadonlySet<string>>(() => new Set(activeGroup ? [activeGroup] : []));

  // Navigating into a closed group opens it; the others keep the state the admin gave them.
  useEffect(() => {
    if (activeGroup) setOpenGroups((s) => (s.has(activeGroup) ? s : new Set(s).add(activeGroup)));
  }, [activeGroup]);

  const toggle = (group: string, opened: boolean) =>
    setOpenGroups((s) => {
      const next = new Set(s);
      if (opened) next.add(group);
      else next.delete(group);
      return next;
    });

  return (
    <ScrollArea type="scroll" px="xs" py="sm" h="100%">
      <nav aria-label="Main">
        {groups.map(({ group, entries: items }) => {
          const GroupIcon = GROUP_ICONS[group];
          const icon = <GroupIcon size={18} stroke={1.6} />;
          if (SINGLE_LINK_GROUPS.has(group) && items.length === 1) {
            const entry = items[0]!;
            return (
              <NavLink
                key={group}
                component={Link}
                to={entry.path}
                label={entry.label}
                leftSection={icon}
                active={entry === active}
                aria-current={entry === active ? 'page' : undefined}
                onClick={onNavigate}
                variant="light"
              />
            );
          }
          return (
            <NavLink
              key={group}
              label={group}
              leftSection={icon}
              opened={openGroups.has(group)}
              onChange={(opened) => toggle(group, opened)}
              childrenOffset={28}
              fw={group === activeGroup ? 600 : undefined}
            >
              {items.map((entry) => (
                <NavLink
                  key={entry.path}
                  component={Link}
                  to={entry.path}
                  label={entry.label}
                  active={entry === active}
                  aria-current={entry === active ? 'page' : undefined}
                  onClick={onNavigate}
                  variant="light"
                />
              ))}
            </NavLink>
          );
        })}
      </nav>
    </ScrollArea>
  );
}
