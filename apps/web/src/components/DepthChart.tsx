import { Box, Group, Text } from '@mantine/core';

export interface DepthPoint {
  price: number;
  quantity: number;
}

const W = 400;
const H = 160;
const PAD_B = 18;

/**
 * A depth chart of a YES book in inline SVG (as the dashboard's bar chart: no chart library): the
 * cumulative quantity bid at each price or better (green, stepping down to the left of the spread)
 * and offered (red, stepping up to its right), on a 0–100¢ axis.
 */
export function DepthChart({ bids, asks }: { bids: DepthPoint[]; asks: DepthPoint[] }) {
  if (bids.length === 0 && asks.length === 0) {
    return (
      <Text size="sm" c="dimmed" py="md">
        The book is empty.
      </Text>
    );
  }
  // Cumulative from the best price outwards.
  const cum = (levels: DepthPoint[]) => {
    let total = 0;
    return levels.map((l) => {
      total += l.quantity;
      return { price: l.price, total };
    });
  };
  const b = cum(bids);
  const a = cum(asks);
  const max = Math.max(1, b.at(-1)?.total ?? 0, a.at(-1)?.total ?? 0);
  const x = (price: number) => (price / 100) * W;
  const y = (q: number) => H - (q / max) * (H - 8);
  // Bids: from the best bid leftwards, each step holds its total until the next (lower) price.
  const bidPath = b.length
    ? `M ${x(b[0]!.price)} ${H} ${b.map((p, i) => `L ${x(p.price)} ${y(p.total)} L ${x(b[i + 1]?.price ?? 0)} ${y(p.total)}`).join(' ')} L 0 ${H} Z`
    : '';
  const askPath = a.length
    ? `M ${x(a[0]!.price)} ${H} ${a.map((p, i) => `L ${x(p.price)} ${y(p.total)} L ${x(a[i + 1]?.price ?? 100)} ${y(p.total)}`).join(' ')} L ${W} ${H} Z`
    : '';
  const ticks = [0, 25, 50, 75, 100];
  return (
    <Box data-testid="depth-chart">
      <svg viewBox={`0 0 ${W} ${H + PAD_B}`} width="100%" height={H + PAD_B} preserveAspectRatio="none" role="img" aria-label={`Depth: ${b.at(-1)?.total ?? 0} bid, ${a.at(-1)?.total ?? 0} offered`}>
        <line x1="0" x2={W} y1={H} y2={H} stroke="var(--mantine-color-gray-4)" strokeWidth="1" vectorEffect="non-scaling-stroke" />
        {bidPath ? <path d={bidPath} fill="var(--mantine-color-teal-2)" stroke="var(--mantine-color-teal-7)" strokeWidth="1.5" vectorEffect="non-scaling-stroke" /> : null}
        {askPath ? <path d={askPath} fill="var(--mantine-color-red-2)" stroke="var(--mantine-color-red-7)" strokeWidth="1.5" vectorEffect="non-scaling-stroke" /> : null}
        {ticks.map((t) => (
          <line key={t} x1={x(t)} x2={x(t)} y1={H} y2={H + 4} stroke="var(--mantine-color-gray-5)" vectorEffect="non-scaling-stroke" />
        ))}
      </svg>
      <Group justify="space-between" mt={-PAD_B + 4}>
        {ticks.map((t) => (
          <Text key={t} size="xs" c="dimmed">
            {t}¢
          </Text>
        ))}
      </Group>
      <Group gap="md" mt={4}>
        <Text size="xs" c="teal.8">
          ■ bids for YES (cumulative)
        </Text>
        <Text size="xs" c="red.8">
          ■ offers of YES (cumulative)
        </Text>
        <Text size="xs" c="dimmed">
          max {max.toLocaleString()} shares
        </Text>
      </Group>
    </Box>
  );
}
