import { Anchor, Badge, Button, Code, Group, Stack, Table, Text } from '@mantine/core';
import type { SessionItem } from '@pitboss/contract';
import { IconLogout } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryStatus } from '../../components/QueryStatus';
import { callApi, fetchApi } from '../../lib/api';
import { queryClient } from '../../lib/queryClient';
import { toast } from '../../lib/toast';
import { ConfirmModal } from '../../resources/components/ConfirmModal';
import { DateTime } from '../../components/DateTime';

/**
 * Live sessions: the signed-in admin's own (no `adminId`: end one, or all others), or a sub-admin's
 * from their record page (`adminId`: end any; `canEnd` when the viewer may edit sub-admins).
 */
export function SessionsPanel({ adminId, canEnd = true }: { adminId?: string; canEnd?: boolean }) {
  const queryKey = adminId ? ['sessions', 'admin', adminId] : ['sessions', 'mine'];
  const query = useQuery({
    queryKey,
    // Sessions come and go (another sign-in, "End sessions" above): opening the tab asks again.
    staleTime: 0,
    queryFn: ({ signal }) =>
      adminId ? fetchApi('GET /api/admin/sub-admins/:id/sessions', { params: { id: adminId }, signal }) : fetchApi('GET /api/admin/sessions', { signal }),
  });
  const [ending, setEnding] = useState<SessionItem | 'others' | null>(null);
  const [busy, setBusy] = useState(false);
  const items = query.data?.items ?? [];
  const others = items.filter((s) => !s.current);

  async function confirmEnd() {
    if (!ending) return;
    setBusy(true);
    const res =
      ending === 'others'
        ? await callApi('POST /api/admin/sessions/end-others', {})
        : adminId
          ? await callApi('DELETE /api/admin/sub-admins/:id/sessions/:sessionId', { params: { id: adminId, sessionId: ending._id } })
          : await callApi('DELETE /api/admin/sessions/:sessionId', { params: { sessionId: ending._id } });
    setBusy(false);
    setEnding(null);
    if (res.success) toast.success(res.message);
    else toast.error(res.message);
    await queryClient.invalidateQueries({ queryKey });
  }

  return (
    <Stack gap="sm" data-testid="sessions-panel">
      <Group justify="space-between" align="flex-end">
        <Text size="sm" c="dimmed">
          {adminId ? 'Where this admin is signed in now.' : 'Where you are signed in now. End a session you do not recognise, then change your password.'}
        </Text>
        {!adminId && others.length > 0 && (
          <Button variant="light" color="red" size="xs" leftSection={<IconLogout size={14} />} onClick={() => setEnding('others')}>
            End all other sessions
          </Button>
        )}
      </Group>
      <QueryStatus query={query} loadingLabel="Loading sessions">
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            No live session.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="xs" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Device</Table.Th>
                  <Table.Th>IP</Table.Th>
                  <Table.Th>Location</Table.Th>
                  <Table.Th>Started</Table.Th>
                  <Table.Th>Last seen</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((s) => (
                  <Table.Tr key={s._id} data-testid="session-row" data-current={s.current ? 'true' : undefined}>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm" title={s.userAgent}>
                          {s.device}
                        </Text>
                        {s.current && (
                          <Badge size="sm" variant="light" color="teal">
                            This session
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Code>{s.ip || '—'}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{s.location}</Text>
                    </Table.Td>
                    <Table.Td>
                      <DateTime value={s.startedAt} />
                    </Table.Td>
                    <Table.Td>
                      <DateTime value={s.lastSeenAt} />
                    </Table.Td>
                    <Table.Td ta="right">
                      {!s.current && canEnd && (
                        <Button size="xs" variant="subtle" color="red" onClick={() => setEnding(s)}>
                          End session
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryStatus>
      <Text size="xs" c="dimmed">
        Locations from an offline database:{' '}
        <Anchor href="https://db-ip.com" target="_blank" rel="noreferrer" size="xs">
          IP Geolocation by DB-IP
        </Anchor>
        .
      </Text>
      <ConfirmModal
        opened={ending !== null}
        title={ending === 'others' ? 'End all other sessions?' : `End the session on ${ending?.device ?? 'this device'}?`}
        confirmLabel={ending === 'others' ? 'End all other sessions' : 'End session'}
        loading={busy}
        onCancel={() => setEnding(null)}
        onConfirm={() => void confirmEnd()}
      >
        {ending === 'others'
          ? `${others.length === 1 ? 'The other session is' : `The ${others.length} other sessions are`} signed out at their next request; this one stays.`
          : ending
            ? `${ending.device} at ${ending.location} (${ending.ip}) is signed out at its next request.`
            : ''}
      </ConfirmModal>
    </Stack>
  );
}
