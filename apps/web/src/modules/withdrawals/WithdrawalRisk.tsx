import { formatMoney, type WithdrawalRisk as Risk } from '@pitboss/contract';
import { Alert, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { fetchApi } from '../../lib/api';

const money = (amount: string, decimals: number, coin: string) => formatMoney(amount, decimals, coin, { grouped: true });

/** Flags worth a second look read orange; the rest (a large amount that takes two approvals) blue. */
const WARNING = new Set(['new_account', 'shared_destination', 'rapid', 'user_blocked', 'new_destination']);

/**
 * What an approver looks up before deciding on a withdrawal, beside the decision: the user (age,
 * status), balances, lifetime deposits and withdrawals, withdrawals of the last 24 hours and 7 days,
 * the destination (whitelisted, new for this user, used by other users), open tickets, and flags.
 */
export function WithdrawalRisk({ id }: { id: string }) {
  const query = useQuery({
    queryKey: ['withdrawal-risk', id],
    queryFn: ({ signal }) => fetchApi('GET /api/admin/withdrawals/:id/risk', { params: { id }, signal }),
    staleTime: 10_000,
  });
  if (query.isPending) return <Skeleton h={120} radius="sm" />;
  if (query.isError) return <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />}>Could not read the risk context: {query.error.message}</Alert>;
  const r: Risk = query.data;
  const d = r.destination;
  return (
    <Paper withBorder radius="sm" p="sm" data-testid="withdrawal-risk" aria-label="Risk context">
      <Stack gap="xs">
        <Group gap={6}>
          {r.flags.length === 0 ? (
            <Badge color="green" variant="light">No flags</Badge>
          ) : (
            r.flags.map((f) => (
              <Badge key={f.code} color={WARNING.has(f.code) ? 'orange' : 'blue'} variant="light" data-flag={f.code} style={{ textTransform: 'none' }}>
                {f.label}
              </Badge>
            ))
          )}
        </Group>
        <SimpleGrid cols={2} spacing="xs" verticalSpacing={4}>
          <Text size="sm">
            <Text span c="dimmed">User </Text>
            {r.user.username} · {r.user.accountAgeDays === 0 ? 'signed up today' : `${r.user.accountAgeDays.toLocaleString('en')} days old`}
            {r.user.status === 'blocked' ? ' · blocked' : ''}
          </Text>
          <Text size="sm">
            <Text span c="dimmed">Open tickets </Text>
            {r.openTickets}
          </Text>
          <Text size="sm" style={{ gridColumn: 'span 2' }}>
            <Text span c="dimmed">Destination </Text>
            {d.whitelisted ? 'whitelisted' : 'not whitelisted'} · {d.newForUser ? 'new for this user' : 'used before by this user'} ·{' '}
            {d.otherUsers === 0 ? 'no other user' : `used by ${d.otherUsers} other user${d.otherUsers === 1 ? '' : 's'}`}
          </Text>
        </SimpleGrid>
        <Table fz="xs" verticalSpacing={2} withRowBorders={false}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Coin</Table.Th>
              <Table.Th ta="right">Available</Table.Th>
              <Table.Th ta="right">Held</Table.Th>
              <Table.Th ta="right">Deposited (all time)</Table.Th>
              <Table.Th ta="right">Withdrawn (all time)</Table.Th>
              <Table.Th ta="right">Asked 24 h</Table.Th>
              <Table.Th ta="right">Asked 7 days</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...new Set([...r.balances, ...r.lifetime, ...r.recent].map((x) => x.coin))].sort().map((coin) => {
              const b = r.balances.find((x) => x.coin === coin);
              const l = r.lifetime.find((x) => x.coin === coin);
              const n = r.recent.find((x) => x.coin === coin);
              const dec = (b ?? l ?? n)!.decimals;
              const cell = (v: string | undefined) => (v === undefined ? '—' : money(v, dec, coin));
              return (
                <Table.Tr key={coin} data-coin={coin}>
                  <Table.Td>{coin}</Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{cell(b?.available)}</Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{cell(b?.held)}</Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{cell(l?.deposited)}</Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{cell(l?.withdrawn)}</Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{n ? `${n.count24h} · ${money(n.amount24h, dec, coin)}` : '—'}</Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>{n ? `${n.count7d} · ${money(n.amount7d, dec, coin)}` : '—'}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
