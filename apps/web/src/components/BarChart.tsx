import { Skeleton, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';

export interface SeriesPoint {
  date: string;
  value: number;
}

const HEIGHT = 160;
const View = lazy(() => import('./charts/ChartViews').then((m) => ({ default: m.BarChartView })));

/** Daily values as a bar chart with axes and a tooltip (`@mantine/charts`, its own chunk: the page's figures paint first). */
export function BarChart({ points, label }: { points: SeriesPoint[]; label: string }) {
  if (points.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No data for this period.
      </Text>
    );
  }
  return (
    <div data-testid="bar-chart">
      <Suspense fallback={<Skeleton h={HEIGHT} />}>
        <View points={points} label={label} height={HEIGHT} />
      </Suspense>
    </div>
  );
}
