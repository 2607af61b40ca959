import { Badge, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { DateTime } from '../../components/DateTime';
import { NOTIFICATION_KINDS, type NotificationRecord } from '@pitboss/contract';
import { useCallback, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { callApi, fetchApi } from '../../lib/api';
import { toast } from '../../lib/toast';
import { subscribeFeed } from './feed';

/**
 * `/notification`: my notifications (those of the modules I may view), newest first, read or
 * unread (`?unread=1`: the tab is in the address, so a reload or a shared link keeps it). New ones
 * arrive live, from the bell's stream.
 */
export default function NotificationsPage() {
  const [params, setParams] = useSearchParams();
  const filter: 'all' | 'unread' = params.get('unread') === '1' ? 'unread' : 'all';
  const setFilter = (next: 'all' | 'unread') => setParams(next === 'unread' ? { unread: '1' } : {}, { replace: true });
  const [items, setItems] = useState<NotificationRecord[]>([]);
  const [unread, setUnread] = useState(0);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);

  const load = useCallback(async (before?: string) => {
    setLoading(true);
    try {
      const r = await fetchApi('GET /api/admin/notifications', { query: { limit: 30, ...(filter === 'unread' ? { unread: 'true' } : {}), ...(before ? { before } : {}) } });
      setItems((prev) => (before ? [...prev, ...r.items] : r.items));
      setUnread(r.unread);
      setCursor(r.nextCursor);
    } catch (err) {
      toast.error((err as Error).message);
    } finally {
      setLoading(false);
    }
  }, [filter]);
  useEffect(() => void load(), [load]);
  useEffect(
    () =>
      subscribeFeed((e) => {
        setUnread(e.unread);
        // A new one is unread: it belongs on both tabs, at the top (once, should a load have it already).
        if (e.kind === 'notification') setItems((prev) => (prev.some((i) => i._id === e.item._id) ? prev : [e.item, ...prev]));
      }),
    [],
  );

  const markRead = async (n: NotificationRecord) => {
    const res = await callApi('POST /api/admin/notifications/:id/read', { params: { id: n._id } });
    if (!res.success) return toast.error(res.message);
    setUnread(res.result?.unread ?? 0);
    setItems((prev) => prev.map((i) => (i._id === n._id ? { ...i, read: true } : i)));
  };
  const readAll = async () => {
    const res = await callApi('POST /api/admin/notifications/read-all', {});
    if (!res.success) return toast.error(res.message);
    toast.success(res.message);
    void load();
  };

  return (
    <>
      <PageHeader
        title="Notifications"
        description={`${unread} unread. You receive those of the modules you may view.`}
        actions={<Button variant="light" onClick={readAll} disabled={unread === 0}>Mark all read</Button>}
      />
      <SegmentedControl mb="md" value={filter} onChange={(v) => setFilter(v as 'all' | 'unread')} data={[{ value: 'all', label: 'All' }, { value: 'unread', label: 'Unread' }]} />
      {!loading && items.length === 0 ? (
        filter === 'unread' ? (
          <EmptyState title="No unread notifications">You have read them all; the All tab still lists them.</EmptyState>
        ) : (
          <EmptyState title="No notifications">New tickets, withdrawals to review, unresolved markets, large deposits and failed mail show up here.</EmptyState>
        )
      ) : null}
      <Stack gap="xs">
        {items.map((n) => (
          <Paper key={n._id} withBorder p="sm" style={n.read ? undefined : { borderLeft: '4px solid var(--mantine-color-blue-filled)' }} data-testid="notification-row">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div style={{ minWidth: 0 }}>
                <Group gap="xs">
                  <Badge size="sm" variant="light">{NOTIFICATION_KINDS[n.kind].label}</Badge>
                  <Text size="xs" c="dimmed"><DateTime value={n.createdAt} size="xs" /></Text>
                </Group>
                <Text fw={n.read ? 400 : 600} mt={4} component={Link} to={n.link} onClick={() => void (n.read ? undefined : markRead(n))} style={{ display: 'block', color: 'inherit' }}>
                  {n.title}
                </Text>
                <Text size="sm" c="dimmed">{n.body}</Text>
              </div>
              {n.read ? null : <Button size="compact-xs" variant="subtle" onClick={() => void markRead(n)}>Mark read</Button>}
            </Group>
          </Paper>
        ))}
      </Stack>
      {cursor ? <Button mt="md" variant="default" loading={loading} onClick={() => void load(cursor)}>Older</Button> : null}
    </>
  );
}
