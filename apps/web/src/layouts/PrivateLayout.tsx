import { AppShell, Avatar, Badge, Burger, Group, Kbd, Menu, Text, ThemeIcon, UnstyledButton, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { accessFor, SUPERADMIN_ROLE, type AdminDetail } from '@pitboss/contract';
import { IconCheck, IconChevronDown, IconDeviceDesktop, IconDevices, IconHistory, IconKey, IconLogout, IconMoon, IconSearch, IconShieldCheck, IconSun, IconUser } from '@tabler/icons-react';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Link, Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { confinedTo } from '../app/guards';
import type { RouteHandle } from '../app/routes';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { callApi } from '../lib/api';
import { queryClient } from '../lib/queryClient';
import { endSession } from '../lib/session';
import { toast } from '../lib/toast';
import { siteNameQuery } from '../modules/site-settings/queries';
import { useAdmin } from '../stores/auth';
import { Sidebar } from './Sidebar';
// Each module's additions to the resource mechanism (field types, record tabs, decision context):
// with the signed-in pages, not in the sign-in page's bundle.
import '../modules/extensions';

/** Ctrl/⌘+K, in its own chunk: loaded once the shell is drawn. */
const CommandPalette = lazy(() => import('./CommandPalette'));
/** The bell (its own chunk): only for admins who may view Notifications. */
const NotificationBell = lazy(() => import('../modules/notifications/NotificationBell'));
const openPalette = () => void import('./CommandPalette').then((m) => m.openCommandPalette());
const togglePalette = () => void import('./CommandPalette').then((m) => m.toggleCommandPalette());
const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase() || '?';
}

async function logout(): Promise<void> {
  const res = await callApi('POST /api/admin/logout', {});
  // Whatever the server said, this browser forgets the session.
  if (endSession()) toast.success(res.success ? res.message : 'Signed out');
}

const SCHEMES: { value: MantineColorScheme; label: string; icon: typeof IconSun }[] = [
  { value: 'light', label: 'Light', icon: IconSun },
  { value: 'dark', label: 'Dark', icon: IconMoon },
  { value: 'auto', label: 'As the system', icon: IconDeviceDesktop },
];

/** Light, dark or the system's choice; Mantine remembers it in localStorage (read before the first paint by /color-scheme.js). */
function AppearanceItems() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <>
      <Menu.Label>Appearance</Menu.Label>
      {SCHEMES.map(({ value, label, icon: Icon }) => (
        <Menu.Item
          key={value}
          aria-current={colorScheme === value ? 'true' : undefined}
          leftSection={<Icon size={16} />}
          rightSection={colorScheme === value ? <IconCheck size={14} aria-hidden /> : null}
          onClick={() => setColorScheme(value)}
        >
          {label}
        </Menu.Item>
      ))}
    </>
  );
}

/** Server state (TanStack Query) is for the private pages; the public ones stay light. */
export function PrivateLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <PrivateShell />
    </QueryClientProvider>
  );
}

/** Private pages: header (site name, admin menu), sidebar filtered by the admin's rights, page outlet. */
function PrivateShell() {
  const current = useAdmin();
  // While a 401's redirect is pending (500 ms) the store is reset; keep drawing the last admin.
  const lastAdmin = useRef<AdminDetail | null>(current);
  if (current) lastAdmin.current = current;
  const admin = current ?? lastAdmin.current;

  const [navOpened, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  const siteName = useQuery({ ...siteNameQuery(), enabled: current !== null }).data?.siteName || 'Pitboss';
  useDocumentTitle(handle?.route.title ?? '', siteName);

  // Held on the 2FA page (the site requires it): the shell offers nothing the admin cannot open.
  const confined = admin ? confinedTo(admin) : null;
  // Anywhere, form fields included; from the first paint, before the palette's chunk has loaded.
  useHotkeys([['mod+K', () => (confined ? undefined : togglePalette())]], []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the mobile menu closes on every navigation, so the path is the trigger.
  useEffect(() => closeNav(), [pathname, closeNav]);

  if (!admin) return null;

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !navOpened } }} padding="md">
      {/* The first stop of Tab: past the header and the sidebar to the page itself (the browser focuses #main). */}
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      {navigation.state !== 'idle' ? <div className="nav-progress" role="progressbar" aria-label="Loading page" /> : null}
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navOpened} onClick={toggleNav} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Group gap={8} wrap="nowrap" renderRoot={(props) => <Link to={confined ?? '/dashboard'} {...props} />} style={{ textDecoration: 'none', color: 'inherit' }}>
              <ThemeIcon size={30} radius="md" aria-hidden>
                <Text fw={800} c="white">
                  {siteName.charAt(0).toUpperCase()}
                </Text>
              </ThemeIcon>
              <Text fw={700} size="lg" data-testid="site-name" truncate>
                {siteName}
              </Text>
            </Group>
          </Group>
          <Group gap="sm" wrap="nowrap">
          {confined ? null : (
          <UnstyledButton onClick={openPalette} aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'} data-testid="open-palette" visibleFrom="sm" className="palette-button">
            <Group gap={8} wrap="nowrap">
              <IconSearch size={16} aria-hidden />
              <Text size="sm" c="dimmed">
                Search
              </Text>
              {/* Said by aria-keyshortcuts: the button's name is what it shows, "Search". */}
              <Kbd size="xs" aria-hidden>
                {isMac ? '⌘' : 'Ctrl'} K
              </Kbd>
            </Group>
          </UnstyledButton>
          )}
          {!confined && accessFor(admin, 'Notification').canView ? (
            <Suspense fallback={null}>
              <NotificationBell />
            </Suspense>
          ) : null}
          <Menu position="bottom-end" width={220} shadow="md" withinPortal>
            <Menu.Target>
              {/* Named by what it shows (name, email, role), as speech users read it; the initials are decoration. */}
              <UnstyledButton data-testid="admin-menu">
                <Group gap={8} wrap="nowrap">
                  <Avatar size={32} radius="xl" color="indigo" aria-hidden>
                    {initials(admin.name)}
                  </Avatar>
                  <div style={{ lineHeight: 1.1 }}>
                    <Text size="sm" fw={600} data-testid="admin-name">
                      {admin.name}
                    </Text>
                    <Text size="xs" c="dimmed" visibleFrom="xs">
                      {admin.email}
                    </Text>
                  </div>
                  {admin.role === SUPERADMIN_ROLE ? (
                    <Badge size="xs" variant="light" visibleFrom="sm">
                      Super admin
                    </Badge>
                  ) : null}
                  <IconChevronDown size={14} aria-hidden />
                </Group>
              </UnstyledButton>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>Account</Menu.Label>
              {confined ? null : (
                <>
                  <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} />}>
                    Profile
                  </Menu.Item>
                  <Menu.Item component={Link} to="/changePassword" leftSection={<IconKey size={16} />}>
                    Change password
                  </Menu.Item>
                  <Menu.Item component={Link} to="/profile?tab=sessions" leftSection={<IconDevices size={16} />}>
                    Sessions
                  </Menu.Item>
                  <Menu.Item component={Link} to="/loginHistory" leftSection={<IconHistory size={16} />}>
                    Login history
                  </Menu.Item>
                </>
              )}
              <Menu.Item component={Link} to="/2fa-settings" leftSection={<IconShieldCheck size={16} />}>
                2FA settings
              </Menu.Item>
              <Menu.Divider />
              <AppearanceItems />
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
                Logout
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      {confined ? null : (
        <Suspense fallback={null}>
          <CommandPalette admin={admin} />
        </Suspense>
      )}
      <AppShell.Navbar>
        <Sidebar admin={admin} pathname={pathname} onNavigate={closeNav} />
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
