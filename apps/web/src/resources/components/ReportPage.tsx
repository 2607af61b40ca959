import { reportBase, reportForPage, type ReportResult, type ReportSpec } from '@pitboss/contract';
import { Button, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useMatches, useSearchParams } from 'react-router';
import type { RouteHandle } from '../../app/routes';
import { BarChart } from '../../components/BarChart';
import { DateRangeInput } from '../../components/DateRangeInput';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { api, downloadFile } from '../../lib/api';
import { toast } from '../../lib/toast';
import { CellValue } from './CellValue';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Daily series of the report's chart: one per `seriesBy` value (a coin), days summed. */
function seriesOf(spec: ReportSpec, rows: Record<string, unknown>[]) {
  const by = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const name = spec.chart.seriesBy ? String(r[spec.chart.seriesBy]) : spec.chart.label;
    const days = by.get(name) ?? new Map<string, number>();
    const date = String(r[spec.chart.date]);
    days.set(date, (days.get(date) ?? 0) + Number(r[spec.chart.value] ?? 0));
    by.set(name, days);
  }
  return [...by.entries()].map(([name, days]) => ({ name, points: [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, value]) => ({ date, value })) }));
}

/** Any declared report: a date range in the URL, daily charts, the rows, CSV export. */
function Report({ spec }: { spec: ReportSpec }) {
  const [params, setParams] = useSearchParams();
  const today = dayjs().format('YYYY-MM-DD');
  const from = DAY.test(params.get('from') ?? '') ? params.get('from')! : dayjs().subtract(spec.defaultDays - 1, 'day').format('YYYY-MM-DD');
  const to = DAY.test(params.get('to') ?? '') ? params.get('to')! : today;
  const [exporting, setExporting] = useState(false);
  const query = useQuery({
    queryKey: ['report', spec.name, from, to],
    queryFn: ({ signal }) => api.get<ReportResult>(reportBase(spec.name), { from, to }, signal),
    placeholderData: keepPreviousData,
  });
  const rows = query.data?.rows ?? [];
  const series = useMemo(() => seriesOf(spec, rows), [spec, rows]);
  const setRange = (nextFrom: string, nextTo: string) => {
    if (!DAY.test(nextFrom) || !DAY.test(nextTo)) return;
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.set('from', nextFrom);
      next.set('to', nextTo);
      return next;
    });
  };
  const runExport = async () => {
    setExporting(true);
    try {
      const res = await downloadFile(`${reportBase(spec.name)}/export`, { query: { from, to }, filename: `${spec.name}.csv` });
      if (res.success) toast.success(`Exported ${res.result?.filename ?? 'CSV'}`);
      else toast.error(res.message);
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <PageHeader
        title={spec.title}
        description={`${spec.description}${query.data ? ` Days in ${query.data.timezone}.` : ''}`}
        actions={
          <Button variant="default" leftSection={<IconDownload size={16} />} loading={exporting} onClick={() => void runExport()}>
            Export CSV
          </Button>
        }
      />
      <Stack gap="md">
        <Group gap="sm" align="flex-end">
          <DateRangeInput label="Period" name="period" from={from} to={to} onChange={setRange} required maxToday />
        </Group>
        <QueryStatus query={query} loadingLabel={`Loading the ${spec.title.toLowerCase()}`}>
          <SimpleGrid cols={{ base: 1, md: Math.min(2, Math.max(1, series.length)) }} spacing="sm">
            {series.length === 0 ? (
              <Paper withBorder p="md" radius="md">
                <Text size="sm" c="dimmed">
                  Nothing in this period.
                </Text>
              </Paper>
            ) : (
              series.map((s) => (
                <Paper key={s.name} withBorder p="md" radius="md" data-testid={`report-chart-${s.name}`}>
                  <Text fw={600} size="sm" mb="xs">
                    {spec.chart.seriesBy ? `${spec.chart.label} (${s.name})` : spec.chart.label}
                  </Text>
                  <BarChart points={s.points} label={s.name} />
                </Paper>
              ))
            )}
          </SimpleGrid>
          <Paper withBorder radius="md" mt="md">
            <Table.ScrollContainer minWidth={480}>
              <Table striped fz="sm" data-testid="report-table">
                <Table.Thead>
                  <Table.Tr>
                    {spec.columns.map((c) => (
                      <Table.Th key={c.key}>{c.label}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={spec.columns.map((c) => String(r[c.key])).join('|')}>
                      {spec.columns.map((c) => (
                        <Table.Td key={c.key}>
                          <CellValue type={c.type} value={r[c.key]} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        </QueryStatus>
      </Stack>
    </>
  );
}

export default function ReportPage() {
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const spec = handle ? reportForPage(handle.route.path) : undefined;
  if (!spec) throw new Error(`No report declares the page ${handle?.route.path ?? '(unknown)'}`);
  return <Report key={spec.name} spec={spec} />;
}
