import { Badge, Text, Tooltip } from '@mantine/core';
import type { ListResult, LoginHistoryItem } from '@pitboss/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useSearchParams } from 'react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { api } from '../../lib/api';

const LIMIT = 20;

const columns: Column<LoginHistoryItem>[] = [
  { key: 'createdAt', header: 'When', width: 180, render: (r) => dayjs(r.createdAt).format('D MMM YYYY, HH:mm:ss') },
  {
    key: 'success',
    header: 'Result',
    width: 110,
    render: (r) => (
      <Badge size="sm" variant="light" color={r.success ? 'teal' : 'red'}>
        {r.success ? 'Signed in' : 'Failed'}
      </Badge>
    ),
  },
  { key: 'reason', header: 'Reason', render: (r) => r.reason ?? '—' },
  { key: 'ip', header: 'IP address', width: 150, render: (r) => <Text size="sm" ff="monospace">{r.ip}</Text> },
  {
    key: 'userAgent',
    header: 'Device',
    render: (r) => (
      <Tooltip label={r.userAgent} disabled={!r.userAgent} multiline maw={420}>
        <Text size="sm" truncate maw={320}>
          {r.userAgent || '—'}
        </Text>
      </Tooltip>
    ),
  },
];

/** Page number from `?page=`, 1 when missing or not a positive whole number. */
export function pageFromParams(params: URLSearchParams): number {
  const n = Number(params.get('page'));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export default function LoginHistoryPage() {
  const [params, setParams] = useSearchParams();
  const page = pageFromParams(params);
  const query = useQuery({
    queryKey: ['login-history', page, LIMIT],
    queryFn: ({ signal }) => api.get<ListResult<LoginHistoryItem>>('/api/admin/loginHistory', { page, limit: LIMIT }, signal),
    placeholderData: keepPreviousData,
  });
  const setPage = (next: number) =>
    setParams((p) => {
      const copy = new URLSearchParams(p);
      if (next <= 1) copy.delete('page');
      else copy.set('page', String(next));
      return copy;
    });
  return (
    <>
      <PageHeader title="Login history" description="Sign-in attempts on your account, newest first." />
      <QueryStatus query={query} loadingLabel="Loading the login history">
        {query.data ? (
          <DataTable
            caption="Login history"
            columns={columns}
            rows={query.data.items}
            rowKey={(r) => r._id}
            page={page}
            limit={LIMIT}
            total={query.data.total}
            onPageChange={setPage}
            empty={page > 1 ? 'No rows on this page' : 'No sign-ins recorded yet'}
          />
        ) : null}
      </QueryStatus>
    </>
  );
}
