import { Box, Group, Skeleton, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';

export interface DepthPoint {
  price: number;
  quantity: number;
}

const HEIGHT = 220;
const View = lazy(() => import('./charts/ChartViews').then((m) => ({ default: m.DepthChartView })));

/**
 * A depth chart of a YES book: cumulative bids (green) and offers (red) on a 0–100¢ axis, with
 * axes and a tooltip (`@mantine/charts`, its own chunk).
 */
export function DepthChart({ bids, asks }: { bids: DepthPoint[]; asks: DepthPoint[] }) {
  if (bids.length === 0 && asks.length === 0) {
    return (
      <Text size="sm" c="dimmed" py="md">
        The book is empty.
      </Text>
    );
  }
  return (
    <Box data-testid="depth-chart">
      <Suspense fallback={<Skeleton h={HEIGHT} />}>
        <View bids={bids} asks={asks} height={HEIGHT} />
      </Suspense>
      <Group gap="md" mt={4}>
        <Text size="xs" c="teal.8">
          ■ bids for YES (cumulative)
        </Text>
        <Text size="xs" c="red.8">
          ■ offers of YES (cumulative)
        </Text>
      </Group>
    </Box>
  );
}
