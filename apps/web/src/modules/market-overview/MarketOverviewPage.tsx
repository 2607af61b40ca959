import { MARKET_OVERVIEW_EVENTS, marketStates, type MarketDepth, type OverviewMarket } from '@pitboss/contract';
import { exactDateTime } from '../../lib/dates';
import { Alert, Anchor, Badge, Box, Grid, Group, Paper, ScrollArea, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconChartCandle } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DepthChart } from '../../components/DepthChart';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { BADGE_STYLES } from '../../resources/components/CellValue';
import { openStream } from '../../lib/stream';

type Status = 'connecting' | 'live' | 'reconnecting' | 'refused';

const number = new Intl.NumberFormat();
const cents = (v: number | null) => (v === null ? '—' : `${v}¢`);
const stateOf = (value: string) => marketStates.states.find((s) => s.value === value);

/**
 * The live market overview: every open or halted market, and the depth of the selected one, as
 * the server's stream (`GET /api/admin/market-overview/stream`) sends them: a snapshot, then the
 * rows and the book that changed, a few times a second at most. Nothing is polled.
 */
function useOverviewStream(market: string | null) {
  const [rows, setRows] = useState<Map<string, OverviewMarket>>(new Map());
  const [depth, setDepth] = useState<MarketDepth | null>(null);
  const [status, setStatus] = useState<Status>('connecting');
  const [message, setMessage] = useState<string | null>(null);
  const [updatedAt, setUpdatedAt] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    setDepth(null);
    return openStream(
      'GET /api/admin/market-overview/stream',
      { query: market ? { market } : {} },
      {
        onStatus(s, m) {
          setStatus(s);
          setMessage(m ?? null);
        },
        onEvent(event, data) {
          const json: unknown = JSON.parse(data);
          if (event === 'snapshot') {
            const snap = MARKET_OVERVIEW_EVENTS.snapshot.parse(json);
            setRows(new Map(snap.markets.markets.map((r) => [r._id, r])));
            setDepth(snap.depth);
            setUpdatedAt(snap.markets.at);
            setLoaded(true);
          } else if (event === 'markets') {
            const change = MARKET_OVERVIEW_EVENTS.markets.parse(json);
            setRows((prev) => {
              const next = new Map(prev);
              for (const r of change.items) next.set(r._id, r);
              for (const id of change.removed) next.delete(id);
              return next;
            });
            setUpdatedAt(change.at);
          } else if (event === 'depth') {
            const d = MARKET_OVERVIEW_EVENTS.depth.parse(json);
            if (d.marketId === market) setDepth(d);
          }
        },
      },
    );
  }, [market]);

  const sorted = useMemo(() => [...rows.values()].sort((a, b) => a.closesAt.localeCompare(b.closesAt) || Number(a._id) - Number(b._id)), [rows]);
  return { rows: sorted, depth, status, message, updatedAt, loaded };
}

function LiveBadge({ status, updatedAt }: { status: Status; updatedAt: string | null }) {
  const label = status === 'live' ? 'Live' : status === 'refused' ? 'Stopped' : status === 'reconnecting' ? 'Reconnecting…' : 'Connecting…';
  const color = status === 'live' ? 'green' : status === 'refused' ? 'red' : 'orange';
  return (
    <Tooltip label={updatedAt ? `Last update ${exactDateTime(updatedAt)}` : 'Waiting for the first update'}>
      <Badge color={color} variant="dot" size="lg" data-testid="stream-status" data-status={status}>
        {label}
      </Badge>
    </Tooltip>
  );
}

function Ladder({ depth }: { depth: MarketDepth }) {
  const rows = Math.max(depth.bids.length, depth.asks.length);
  if (rows === 0) return null;
  const cell = (l: MarketDepth['bids'][number] | undefined, side: 'bid' | 'ask') =>
    l ? (
      <>
        <Table.Td ta="right" c={side === 'bid' ? 'teal.8' : 'red.8'} fw={600}>
          {l.price}¢
        </Table.Td>
        <Table.Td ta="right">
          <Tooltip label={`${l.orders} order${l.orders === 1 ? '' : 's'}${l.fromNo ? `, ${number.format(l.fromNo)} shares from NO orders at ${100 - l.price}¢` : ''}`}>
            <span>{number.format(l.quantity)}</span>
          </Tooltip>
        </Table.Td>
      </>
    ) : (
      <>
        <Table.Td />
        <Table.Td />
      </>
    );
  return (
    <Table striped withTableBorder fz="sm" data-testid="depth-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th ta="right">Bid</Table.Th>
          <Table.Th ta="right">Shares</Table.Th>
          <Table.Th ta="right">Ask</Table.Th>
          <Table.Th ta="right">Shares</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {Array.from({ length: rows }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: ladder rows by depth rank
          <Table.Tr key={i}>
            {cell(depth.bids[i], 'bid')}
            {cell(depth.asks[i], 'ask')}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export default function MarketOverviewPage() {
  const [params, setParams] = useSearchParams();
  const selected = params.get('market');
  const { rows, depth, status, message, updatedAt, loaded } = useOverviewStream(selected && /^\d+$/.test(selected) ? selected : null);
  const select = (id: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (next.get('market') === id) next.delete('market');
        else next.set('market', id);
        return next;
      },
      { replace: true },
    );
  const selectedRow = rows.find((r) => r._id === selected);

  return (
    <>
      <PageHeader
        title="Market overview"
        description="Open and halted markets as their books change. Prices are YES cents: a NO order at q sits at 100 − q. Select a market to see its book."
        actions={<LiveBadge status={status} updatedAt={updatedAt} />}
      />
      {status === 'refused' ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} mb="md" title="The live feed stopped">
          {message}
        </Alert>
      ) : null}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: selected ? 7 : 12 }}>
          <Paper withBorder radius="md">
            {loaded && rows.length === 0 ? (
              <EmptyState icon={<IconChartCandle size={24} />} title="No open markets">
                Markets appear here once they open for trading.
              </EmptyState>
            ) : (
              <ScrollArea>
                <Table highlightOnHover fz="sm" miw={selected ? 600 : 760} horizontalSpacing="xs" data-testid="overview-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Market</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th ta="right">Bid</Table.Th>
                      <Table.Th ta="right">Ask</Table.Th>
                      <Table.Th ta="right">Last</Table.Th>
                      <Table.Th ta="right">Vol 24 h</Table.Th>
                      <Table.Th ta="right">
                        <Tooltip label="Open interest: YES/NO pairs outstanding">
                          <span>OI</span>
                        </Tooltip>
                      </Table.Th>
                      <Table.Th ta="right">
                        <Tooltip label="Orders resting in the book">
                          <span>Orders</span>
                        </Tooltip>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((r) => {
                      const state = stateOf(r.status);
                      return (
                        <Table.Tr
                          key={r._id}
                          onClick={() => select(r._id)}
                          style={{ cursor: 'pointer' }}
                          bg={r._id === selected ? 'var(--mantine-primary-color-light)' : undefined}
                          data-testid={`overview-row-${r.ticker}`}
                          aria-selected={r._id === selected}
                        >
                          <Table.Td>
                            <Group gap={6} wrap="nowrap">
                              <Text size="sm" fw={600} ff="monospace">
                                {r.ticker}
                              </Text>
                              <Tooltip label={`History of ${r.eventTicker}: ${r.eventTitle}`}>
                                <Anchor component={Link} to={`/event-history/${r.eventId}`} size="xs" onClick={(e) => e.stopPropagation()}>
                                  history
                                </Anchor>
                              </Tooltip>
                            </Group>
                            <Text size="xs" c="dimmed" lineClamp={1}>
                              {r.title}
                            </Text>
                          </Table.Td>
                          <Table.Td miw={84}>
                            <Badge color={state?.color ?? 'gray'} variant="light" styles={BADGE_STYLES}>
                              {state?.label ?? r.status}
                            </Badge>
                          </Table.Td>
                          <Table.Td ta="right" c="teal.8" data-testid="best-bid">
                            {cents(r.bestBid)}
                          </Table.Td>
                          <Table.Td ta="right" c="red.8" data-testid="best-ask">
                            {cents(r.bestAsk)}
                          </Table.Td>
                          <Table.Td ta="right" data-testid="last-price">
                            {cents(r.lastPrice)}
                          </Table.Td>
                          <Table.Td ta="right" data-testid="volume-24h">
                            {number.format(r.volume24h)}
                          </Table.Td>
                          <Table.Td ta="right">{number.format(r.openInterest)}</Table.Td>
                          <Table.Td ta="right" data-testid="resting">
                            {number.format(r.restingOrders)}
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </ScrollArea>
            )}
          </Paper>
        </Grid.Col>
        {selected ? (
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <Paper withBorder radius="md" p="md" data-testid="depth-panel">
              <Group justify="space-between" mb="xs" wrap="nowrap">
                <Box>
                  <Title order={3} fz="h5" ff="monospace">
                    {depth?.ticker ?? selectedRow?.ticker ?? '…'}
                  </Title>
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {depth?.title ?? selectedRow?.title}
                  </Text>
                </Box>
                {depth && depth.status !== 'open' ? (
                  <Badge color={stateOf(depth.status)?.color ?? 'gray'} variant="light">
                    {stateOf(depth.status)?.label ?? depth.status}
                  </Badge>
                ) : null}
              </Group>
              {depth ? (
                <>
                  <DepthChart bids={depth.bids} asks={depth.asks} />
                  <Box mt="md">
                    <Ladder depth={depth} />
                  </Box>
                </>
              ) : (
                <Text size="sm" c="dimmed">
                  Loading the book…
                </Text>
              )}
            </Paper>
          </Grid.Col>
        ) : null}
      </Grid>
    </>
  );
}
