import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconChartBar, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { BarChart } from '../../components/BarChart';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { groupThousands } from '../../lib/amounts';
import { fetchApi } from '../../lib/api';

const number = new Intl.NumberFormat();

export default function DashboardPage() {
  const query = useQuery({
    queryKey: ['dashboard'],
    queryFn: ({ signal }) => fetchApi('GET /api/admin/dashboard', { signal }),
  });
  const data = query.data;
  return (
    <>
      <PageHeader
        title="Dashboard"
        description={data?.timezone ? `Days are counted in ${data.timezone}.` : 'Figures from the platform, grouped by day in your time zone.'}
        actions={
          <Button variant="default" size="xs" leftSection={<IconRefresh size={14} />} loading={query.isFetching} onClick={() => void query.refetch()}>
            Refresh
          </Button>
        }
      />
      <QueryStatus query={query} loadingLabel="Loading the dashboard">
        {data && data.cards.length === 0 && data.series.length === 0 ? (
          <EmptyState icon={<IconChartBar size={24} />} title="No figures yet" />
        ) : null}
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" mb="md">
          {data?.cards.map((card) => (
            <Paper key={card.key} withBorder p="md" radius="md" data-testid={`card-${card.key}`}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                {card.label}
              </Text>
              {card.text ? (
                // Amounts per coin ("327.268645 SOL · 34780.97 USDC"): one per line, grouped by thousands.
                <Stack gap={0}>
                  {card.text.split(' · ').map((part) => (
                    <Text key={part} fz={22} fw={700} lh={1.3} style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                      {groupThousands(part)}
                    </Text>
                  ))}
                </Stack>
              ) : (
                <Text fz={26} fw={700} lh={1.3}>
                  {number.format(card.value)}
                </Text>
              )}
              {card.hint ? (
                <Text size="xs" c="dimmed">
                  {card.hint}
                </Text>
              ) : null}
            </Paper>
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 2, lg: 3 }} spacing="sm">
          {data?.series.map((s) => (
            <Paper key={s.key} withBorder p="md" radius="md" data-testid={`series-${s.key}`}>
              <Group justify="space-between" mb="xs">
                <Text fw={600} size="sm">
                  {s.label}
                </Text>
                <Text size="xs" c="dimmed">
                  {number.format(s.points.reduce((sum, p) => sum + p.value, 0))} in {s.points.length} days
                </Text>
              </Group>
              <BarChart points={s.points} label={s.label} />
            </Paper>
          ))}
        </SimpleGrid>
      </QueryStatus>
    </>
  );
}
