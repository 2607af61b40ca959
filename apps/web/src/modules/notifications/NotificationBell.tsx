import { ActionIcon, Anchor, Button, Group, Indicator, Popover, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { DateTime } from '../../components/DateTime';
import { NOTIFICATION_EVENTS, type NotificationRecord } from '@pitboss/contract';
import { IconBell } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { callApi, fetchApi } from '../../lib/api';
import { openStream } from '../../lib/stream';
import { toast } from '../../lib/toast';
import { publishFeed } from './feed';

/**
 * The header's bell: my unread count, live from `GET /api/admin/notifications/stream` (read with
 * fetch and the Authorization header, like the market overview), and the latest notifications on
 * click. Shown only to admins who may view Notifications.
 */
export default function NotificationBell() {
  const [unread, setUnread] = useState<number | null>(null);
  const [opened, setOpened] = useState(false);
  const [items, setItems] = useState<NotificationRecord[] | null>(null);
  const navigate = useNavigate();

  useEffect(
    () =>
      openStream('GET /api/admin/notifications/stream', {}, {
        onEvent(event, data) {
          const json: unknown = JSON.parse(data);
          if (event === 'count') {
            const { unread: count } = NOTIFICATION_EVENTS.count.parse(json);
            setUnread(count);
            publishFeed({ kind: 'count', unread: count });
          } else if (event === 'notification') {
            const n = NOTIFICATION_EVENTS.notification.parse(json);
            setUnread(n.unread);
            setItems((prev) => (prev ? [n.item, ...prev].slice(0, 10) : prev));
            publishFeed({ kind: 'notification', item: n.item, unread: n.unread });
          }
        },
      }),
    [],
  );

  useEffect(() => {
    if (!opened) return;
    const ctrl = new AbortController();
    fetchApi('GET /api/admin/notifications', { query: { limit: 10 }, signal: ctrl.signal })
      .then((r) => {
        setItems(r.items);
        setUnread(r.unread);
      })
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [opened]);

  const open = async (n: NotificationRecord) => {
    setOpened(false);
    if (!n.read) await callApi('POST /api/admin/notifications/:id/read', { params: { id: n._id } });
    navigate(n.link);
  };
  const readAll = async () => {
    const res = await callApi('POST /api/admin/notifications/read-all', {});
    if (!res.success) return toast.error(res.message);
    setUnread(res.result?.unread ?? 0);
    setItems((prev) => prev?.map((i) => ({ ...i, read: true })) ?? prev);
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} shadow="md" withinPortal>
      {/* The target is the button itself: the popover's aria-expanded belongs on it, not on the indicator. */}
      <Indicator label={unread && unread > 99 ? '99+' : unread} size={18} disabled={!unread} color="red" offset={4} data-testid="bell-count" data-count={unread ?? ''}>
        <Popover.Target>
          <ActionIcon variant="subtle" size="lg" aria-label={`Notifications${unread ? `: ${unread} unread` : ''}`} onClick={() => setOpened((o) => !o)} data-testid="bell">
            <IconBell size={20} />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p="xs">
        <Group justify="space-between" mb={6} px={4}>
          <Text fw={600} size="sm">Notifications</Text>
          <Button variant="subtle" size="compact-xs" onClick={readAll} disabled={!unread}>Mark all read</Button>
        </Group>
        <ScrollArea.Autosize mah={380}>
          <Stack gap={2}>
            {items === null ? <Text size="sm" c="dimmed" p="xs">Loading…</Text> : null}
            {items?.length === 0 ? <Text size="sm" c="dimmed" p="xs">Nothing yet.</Text> : null}
            {items?.map((n) => (
              <UnstyledButton key={n._id} onClick={() => void open(n)} p={6} style={{ borderRadius: 6, background: n.read ? undefined : 'var(--mantine-color-blue-light)' }} data-testid="bell-item">
                <Text size="sm" fw={n.read ? 400 : 600} lineClamp={1}>{n.title}</Text>
                <Text size="xs" c="dimmed" lineClamp={2}>{n.body}</Text>
                <Text size="xs" c="dimmed"><DateTime value={n.createdAt} size="xs" /></Text>
              </UnstyledButton>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        <Anchor component={Link} to="/notification" size="sm" display="block" ta="center" mt={6} onClick={() => setOpened(false)}>
          See all notifications
        </Anchor>
      </Popover.Dropdown>
    </Popover>
  );
}
