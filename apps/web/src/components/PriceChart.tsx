import { Box, Group, Text } from '@mantine/core';
import dayjs from 'dayjs';

export interface PriceSeries {
  key: string;
  label: string;
  points: { at: string; price: number; quantity: number }[];
}

const W = 600;
const H = 200;
const COLORS = ['blue', 'orange', 'grape', 'teal', 'red', 'indigo', 'lime', 'pink', 'cyan', 'yellow'];

/**
 * Trade prices over time in inline SVG (no chart library, as the dashboard's charts): one step line
 * per market on a 0–100¢ axis, the time axis spanning every market's trades; each point's price,
 * size and time as its tooltip.
 */
export function PriceChart({ series }: { series: PriceSeries[] }) {
  const withPoints = series.filter((s) => s.points.length > 0);
  if (withPoints.length === 0) {
    return (
      <Text size="sm" c="dimmed" py="md">
        No trades yet.
      </Text>
    );
  }
  const times = withPoints.flatMap((s) => s.points.map((p) => new Date(p.at).getTime()));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const span = Math.max(t1 - t0, 1);
  const x = (at: string) => ((new Date(at).getTime() - t0) / span) * (W - 8) + 4;
  const y = (price: number) => H - (price / 100) * H;
  const fmt = (t: number) => dayjs(t).format(span > 2 * 86_400_000 ? 'D MMM' : span > 3_600_000 ? 'D MMM HH:mm' : 'D MMM HH:mm:ss');
  return (
    <Box data-testid="price-chart">
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" height={H} preserveAspectRatio="none" role="img" aria-label="Trade prices over time">
        {[25, 50, 75].map((p) => (
          <line key={p} x1="0" x2={W} y1={y(p)} y2={y(p)} stroke="var(--mantine-color-gray-3)" strokeDasharray="4 4" vectorEffect="non-scaling-stroke" />
        ))}
        {series.map((s, i) => {
          if (s.points.length === 0) return null;
          const color = `var(--mantine-color-${COLORS[i % COLORS.length]}-6)`;
          const d = s.points.map((p, j) => (j === 0 ? `M ${x(p.at)} ${y(p.price)}` : `H ${x(p.at)} V ${y(p.price)}`)).join(' ');
          return (
            <g key={s.key}>
              <path d={d} fill="none" stroke={color} strokeWidth="2" vectorEffect="non-scaling-stroke" />
              {s.points.length <= 60
                ? s.points.map((p, j) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: points of one series in time order
                    <circle key={j} cx={x(p.at)} cy={y(p.price)} r="2.5" fill={color}>
                      <title>{`${s.label}: ${p.price}¢ × ${p.quantity} at ${dayjs(p.at).format('D MMM YYYY HH:mm:ss')}`}</title>
                    </circle>
                  ))
                : null}
            </g>
          );
        })}
      </svg>
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {fmt(t0)}
        </Text>
        <Text size="xs" c="dimmed">
          YES price, 0–100¢ (dashed: 25, 50, 75)
        </Text>
        <Text size="xs" c="dimmed">
          {fmt(t1)}
        </Text>
      </Group>
      <Group gap="md" mt={4}>
        {series.map((s, i) => (
          <Text key={s.key} size="xs" c={`${COLORS[i % COLORS.length]}.7`}>
            ■ {s.label}
          </Text>
        ))}
      </Group>
    </Box>
  );
}
