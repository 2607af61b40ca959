import { Box, Text } from '@mantine/core';
import dayjs from 'dayjs';

export interface SeriesPoint {
  date: string;
  value: number;
}

const HEIGHT = 120;
const LABEL_H = 18;

/** A small inline-SVG bar chart of daily values (no chart library needed); each bar has its value as a tooltip. */
export function BarChart({ points, label, color = 'var(--mantine-primary-color-filled)' }: { points: SeriesPoint[]; label: string; color?: string }) {
  if (points.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No data for this period.
      </Text>
    );
  }
  const max = Math.max(1, ...points.map((p) => p.value));
  const slot = 100 / points.length;
  const barW = slot * 0.7;
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const first = points[0]!;
  const last = points.at(-1)!;
  const fmt = (d: string) => dayjs(d).format('D MMM');
  return (
    <Box>
      <svg
        viewBox={`0 0 100 ${HEIGHT + LABEL_H}`}
        preserveAspectRatio="none"
        width="100%"
        height={HEIGHT + LABEL_H}
        role="img"
        aria-label={`${label}: ${total} from ${fmt(first.date)} to ${fmt(last.date)}`}
      >
        <line x1="0" x2="100" y1={HEIGHT} y2={HEIGHT} stroke="var(--mantine-color-default-border)" strokeWidth="0.5" vectorEffect="non-scaling-stroke" />
        {points.map((p, i) => {
          const h = (p.value / max) * (HEIGHT - 8);
          return (
            <rect key={p.date} x={i * slot + (slot - barW) / 2} y={HEIGHT - h} width={barW} height={Math.max(h, p.value > 0 ? 1 : 0)} fill={color} rx="0.6">
              <title>{`${fmt(p.date)}: ${p.value}`}</title>
            </rect>
          );
        })}
      </svg>
      <Box style={{ display: 'flex', justifyContent: 'space-between', marginTop: -LABEL_H + 4 }}>
        <Text size="xs" c="dimmed">
          {fmt(first.date)}
        </Text>
        <Text size="xs" c="dimmed">
          max {max}
        </Text>
        <Text size="xs" c="dimmed">
          {fmt(last.date)}
        </Text>
      </Box>
    </Box>
  );
}
