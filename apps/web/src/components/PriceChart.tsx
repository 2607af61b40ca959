import { Box, Skeleton, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';

export interface PriceSeries {
  key: string;
  label: string;
  points: { at: string; price: number; quantity: number }[];
}

const HEIGHT = 260;
const View = lazy(() => import('./charts/ChartViews').then((m) => ({ default: m.PriceChartView })));

/**
 * Trade prices over time: one step line per market on a 0–100¢ axis, the time axis spanning every
 * market's trades, each moment's prices in the tooltip (`@mantine/charts`, its own chunk).
 */
export function PriceChart({ series }: { series: PriceSeries[] }) {
  if (!series.some((s) => s.points.length > 0)) {
    return (
      <Text size="sm" c="dimmed" py="md">
        No trades yet.
      </Text>
    );
  }
  return (
    <Box data-testid="price-chart">
      <Suspense fallback={<Skeleton h={HEIGHT} />}>
        <View series={series} height={HEIGHT} />
      </Suspense>
    </Box>
  );
}
