import { Badge, NavLink, ScrollArea, Text } from '@mantine/core';
import { approvalsResource, type AccessSubject, type SidebarGroup } from '@pitboss/contract';
import { useQuery } from '@tanstack/react-query';
import {
  IconAddressBook,
  IconBuildingStore,
  IconCards,
  IconChartCandle,
  IconChecks,
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
  IconShieldCheck,
  IconShieldLock,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { confinedTo } from '../app/guards';
import { activeEntry, sidebarSections } from '../app/navigation';
import { fetchList, resourceKeys } from '../resources/api';

const GROUP_ICONS: Record<SidebarGroup, Icon> = {
  Dashboard: IconGauge,
  'Awaiting my approval': IconChecks,
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

const AWAITING_APPROVAL = approvalsResource.pages.list;

/**
 * How many decisions wait for this admin's second approval (the queue's total), beside its entry;
 * nothing when none. Read again every 30 s and whenever the queue or an approval changes here.
 */
function AwaitingCount() {
  const query = useQuery({
    queryKey: [...resourceKeys.all(approvalsResource.name), 'count'],
    queryFn: ({ signal }) => fetchList(approvalsResource, { limit: 1 }, signal),
    refetchInterval: 30_000,
    staleTime: 10_000,
  });
  const n = query.data?.total ?? 0;
  if (n === 0) return null;
  return (
    <Badge size="sm" variant="filled" color="orange" circle={n < 10} data-testid="awaiting-approval-count" aria-label={`${n} waiting`}>
      {n > 99 ? '99+' : n}
    </Badge>
  );
}

type SidebarAdmin = AccessSubject & { twoFactorSetupRequired?: boolean | undefined };

export function Sidebar({ admin, pathname, onNavigate }: { admin: SidebarAdmin; pathname: string; onNavigate?: () => void }) {
  const confined = confinedTo(admin);
  if (confined) return <ConfinedSidebar path={confined} pathname={pathname} onNavigate={onNavigate} />;
  return <PagesSidebar admin={admin} pathname={pathname} onNavigate={onNavigate} />;
}

/** An admin held on the 2FA page (the site requires it): that page, and why the others are not offered. */
function ConfinedSidebar({ path, pathname, onNavigate }: { path: string; pathname: string; onNavigate?: (() => void) | undefined }) {
  return (
    <ScrollArea type="scroll" px="xs" py="sm" h="100%">
      <nav aria-label="Main">
        <NavLink component={Link} to={path} label="2FA settings" leftSection={<IconShieldCheck size={18} stroke={1.6} />} active={pathname === path} aria-current={pathname === path ? 'page' : undefined} onClick={onNavigate} variant="light" />
        <Text size="xs" c="dimmed" px="sm" mt="sm" data-testid="confined-note">
          This site requires two-factor authentication. Turn it on to open the other pages.
        </Text>
      </nav>
    </ScrollArea>
  );
}

function PagesSidebar({ admin, pathname, onNavigate }: { admin: AccessSubject; pathname: string; onNavigate?: (() => void) | undefined }) {
  const groups = useMemo(() => sidebarSections(admin), [admin]);
  const entries = useMemo(() => groups.flatMap((g) => g.entries), [groups]);
  const active = activeEntry(entries, pathname);
  const activeGroup = active?.group;
  const [openGroups, setOpenGroups] = useState<ReadonlySet<string>>(() => new Set(activeGroup ? [activeGroup] : []));

  // Navigating into a closed group opens it; the others keep the state the admin gave them.
  useEffect(() => {
    if (activeGroup) setOpenGroups((s) => (s.has(activeGroup) ? s : new Set(s).add(activeGroup)));
  }, [activeGroup]);

  // A long sidebar keeps the current page in sight.
  const activePath = active?.path;
  useEffect(() => {
    if (!activePath) return;
    const id = requestAnimationFrame(() => document.querySelector('nav[aria-label="Main"] [aria-current="page"]')?.scrollIntoView({ block: 'nearest' }));
    return () => cancelAnimationFrame(id);
  }, [activePath]);

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
        {groups.map(({ group, entries: items, single }) => {
          const GroupIcon = GROUP_ICONS[group];
          const icon = <GroupIcon size={18} stroke={1.6} />;
          if (single) {
            const entry = items[0]!;
            return (
              <NavLink
                key={group}
                component={Link}
                to={entry.path}
                label={entry.label}
                rightSection={entry.path === AWAITING_APPROVAL ? <AwaitingCount /> : undefined}
                leftSection={icon}
                active={entry === active}
                aria-current={entry === active ? 'page' : undefined}
                onClick={onNavigate}
                variant="light"
              />
            );
          }
          // A group header is a button (Tab reaches it, Enter and Space toggle) that says whether it is open.
          const opened = openGroups.has(group);
          return (
            <NavLink
              key={group}
              component="button"
              type="button"
              aria-expanded={opened}
              label={group}
              leftSection={icon}
              opened={opened}
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
