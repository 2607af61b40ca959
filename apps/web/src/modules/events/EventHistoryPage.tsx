import { AUDIT_ACTIONS, eventStates, isAuditAction, marketStates, type EventHistory } from '@pitboss/contract';
import { Anchor, Badge, Button, Grid, Group, Paper, Table, Text, Timeline, Title } from '@mantine/core';
import { IconArrowLeft, IconHistory } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { DateTime } from '../../components/DateTime';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { PriceChart } from '../../components/PriceChart';
import { QueryStatus } from '../../components/QueryStatus';
import { fetchApi } from '../../lib/api';

const number = new Intl.NumberFormat();
const stateLabel = (kind: 'event' | 'market', value: string | null) => {
  if (!value) return null;
  const states: readonly { value: string; label: string; color: string }[] = kind === 'event' ? eventStates.states : marketStates.states;
  return states.find((s) => s.value === value) ?? { value, label: value, color: 'gray' };
};
const actionLabel = (a: string) => (isAuditAction(a) ? AUDIT_ACTIONS[a] : a);

function TimelineList({ entries }: { entries: EventHistory['timeline'] }) {
  if (entries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing recorded yet.
      </Text>
    );
  }
  return (
    <Timeline active={entries.length} bulletSize={14} lineWidth={2} data-testid="event-timeline">
      {entries.map((e, i) => {
        const to = stateLabel(e.kind, e.to);
        return (
          <Timeline.Item
            // biome-ignore lint/suspicious/noArrayIndexKey: entries in time order, never reordered
            key={i}
            color={to?.color ?? 'gray'}
            title={
              <Group gap={6} wrap="wrap">
                <Text size="sm" fw={600} ff={e.kind === 'market' ? 'monospace' : undefined}>
                  {e.kind === 'event' ? 'Event' : e.ticker}
                </Text>
                <Text size="sm">{actionLabel(e.action)}</Text>
                {to ? (
                  <Badge size="xs" variant="light" color={to.color}>
                    {e.from ? `${stateLabel(e.kind, e.from)?.label} → ${to.label}` : to.label}
                  </Badge>
                ) : null}
              </Group>
            }
          >
            {e.detail ? (
              <Text size="xs" mt={2}>
                {e.detail}
              </Text>
            ) : null}
            <Text size="xs" c="dimmed" mt={2}>
              <DateTime value={e.at} size="xs" /> · {e.by}
            </Text>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}

export default function EventHistoryPage() {
  const { id = '' } = useParams();
  const query = useQuery({
    queryKey: ['event-history', id],
    queryFn: ({ signal }) => fetchApi('GET /api/admin/events/:id/history', { params: { id }, signal }),
    enabled: /^\d+$/.test(id),
  });
  const data = query.data;
  const traded = data?.markets.filter((m) => m.points.length > 0) ?? [];
  return (
    <>
      <PageHeader
        title={data ? `History of ${data.event.ticker}` : 'Event history'}
        description={data?.event.title ?? 'Status changes, resolutions and trade prices of an event and its markets.'}
        actions={
          <Button component={Link} to={`/update-event/${id}`} variant="default" size="xs" leftSection={<IconArrowLeft size={14} />}>
            The event
          </Button>
        }
      />
      {/^\d+$/.test(id) ? null : <EmptyState icon={<IconHistory size={24} />} title="No such event" />}
      <QueryStatus query={query} loadingLabel="Loading the event's history">
        {data ? (
          <Grid gap="md">
            <Grid.Col span={{ base: 12, md: 5 }}>
              <Paper withBorder radius="md" p="md">
                <Group justify="space-between" mb="sm">
                  <Title order={3} fz="h5">
                    Timeline
                  </Title>
                  <Badge color={stateLabel('event', data.event.status)?.color} variant="light">
                    {stateLabel('event', data.event.status)?.label}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed" mb="md">
                  Trading <DateTime value={data.event.openTime} size="xs" absolute /> – <DateTime value={data.event.closeTime} size="xs" absolute />, resolution expected{' '}
                  <DateTime value={data.event.expectedResolutionTime} size="xs" absolute />
                </Text>
                <TimelineList entries={data.timeline} />
              </Paper>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 7 }}>
              <Paper withBorder radius="md" p="md" mb="md">
                <Title order={3} fz="h5" mb="sm">
                  Trade prices
                </Title>
                <PriceChart series={traded.map((m) => ({ key: m._id, label: m.ticker, points: m.points }))} />
                {traded.some((m) => m.bucketed) ? (
                  <Text size="xs" c="dimmed" mt={4}>
                    Markets with many trades show one point per time slice (its last price).
                  </Text>
                ) : null}
              </Paper>
              <Paper withBorder radius="md">
                <Table fz="sm" data-testid="event-markets">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Market</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th ta="right">Last</Table.Th>
                      <Table.Th ta="right">Volume</Table.Th>
                      <Table.Th ta="right">Trades</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.markets.map((m) => {
                      const st = stateLabel('market', m.status);
                      return (
                        <Table.Tr key={m._id}>
                          <Table.Td>
                            <Anchor component={Link} to={`/update-market/${m._id}`} size="sm" ff="monospace">
                              {m.ticker}
                            </Anchor>
                            <Text size="xs" c="dimmed" lineClamp={1}>
                              {m.title}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <Badge color={st?.color} variant="light">
                              {st?.label}
                              {m.result ? `: ${m.result}` : ''}
                            </Badge>
                          </Table.Td>
                          <Table.Td ta="right">{m.lastPrice === null ? '—' : `${m.lastPrice}¢`}</Table.Td>
                          <Table.Td ta="right">{number.format(m.volume)}</Table.Td>
                          <Table.Td ta="right">{number.format(m.trades)}</Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
                {data.markets.length === 0 ? (
                  <Text size="sm" c="dimmed" p="md">
                    This event has no markets.
                  </Text>
                ) : null}
              </Paper>
            </Grid.Col>
          </Grid>
        ) : null}
      </QueryStatus>
    </>
  );
}
