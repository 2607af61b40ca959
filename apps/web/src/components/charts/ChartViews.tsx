import '@mantine/charts/styles.css';
import { AreaChart, BarChart as MantineBarChart, LineChart } from '@mantine/charts';
import dayjs from 'dayjs';
import { DATE_FORMAT, formatDateTime } from '../../lib/dates';
import type { DepthPoint } from '../DepthChart';
import type { PriceSeries } from '../PriceChart';
import type { SeriesPoint } from '../BarChart';

/**
 * The charts (`@mantine/charts`, on Recharts): axes, grid and a tooltip, dates in the app's format.
 * This module is its own chunk, loaded by the pages that draw a chart (see BarChart, PriceChart,
 * DepthChart), never by the first load.
 */

const COLORS = ['blue.6', 'orange.6', 'grape.6', 'teal.6', 'red.6', 'indigo.6', 'lime.6', 'pink.6', 'cyan.6', 'yellow.6'];
const number = new Intl.NumberFormat();
/** Every decimal a coin can have (Intl's default stops at 3: 0.000405 read "0"). */
const exact = new Intl.NumberFormat(undefined, { maximumFractionDigits: 20 });

/** Daily values as bars: the day on the x axis ("26 Nov"), the value on the y axis, both in the tooltip. */
export function BarChartView({ points, label, height }: { points: SeriesPoint[]; label: string; height: number }) {
  const total = points.reduce((sum, p) => sum + p.value, 0);
  // Small counts get one tick per unit up to their maximum (Recharts would draw 0–4 for a series of
  // zeros or ones); larger ones keep Recharts' own rounded ticks.
  const max = Math.max(0, ...points.map((p) => p.value));
  const small = max <= 4 && Number.isInteger(max) ? Array.from({ length: Math.max(1, max) + 1 }, (_, i) => i) : null;
  // Counts get whole ticks; amounts of a coin (0.5 USDC, 0.000405 SOL) keep their decimals, on the axis
  // (whole ticks drew 0.5 on a 0–4 axis, 0.000405 as no bar at all) and in the tooltip.
  const counts = points.every((p) => Number.isInteger(p.value));
  // Wide enough for the longest tick ("0.000016" was cut to ".000016" at a fixed 40 px): about 7 px a character.
  const width = Math.max(40, 7 * ((counts ? number : exact).format(max).length + 1) + 6);
  return (
    <MantineBarChart
      h={height}
      data={points}
      dataKey="date"
      series={[{ name: 'value', label, color: 'indigo.6' }]}
      valueFormatter={(v) => (counts ? number : exact).format(v)}
      xAxisProps={{ tickFormatter: (d: string) => dayjs(d).format('D MMM'), minTickGap: 12 }}
      yAxisProps={{ allowDecimals: !counts, width, interval: 0, ...(small ? { domain: [0, small.at(-1)!], ticks: small } : {}) }}
      tooltipProps={{ labelFormatter: (d) => dayjs(String(d)).format(DATE_FORMAT) }}
      tooltipAnimationDuration={120}
      gridAxis="x"
      aria-label={`${label}: ${number.format(total)} from ${dayjs(points[0]!.date).format(DATE_FORMAT)} to ${dayjs(points.at(-1)!.date).format(DATE_FORMAT)}`}
      role="img"
    />
  );
}

/** Trade prices over time: one step line per market on a 0–100¢ axis, time proportional on the x axis. */
export function PriceChartView({ series, height }: { series: PriceSeries[]; height: number }) {
  const withPoints = series.filter((s) => s.points.length > 0);
  // One row per moment; each market's column holds its price at its trades (lines join across the others').
  const rows = new Map<number, Record<string, number>>();
  for (const s of withPoints) {
    for (const p of s.points) {
      const t = new Date(p.at).getTime();
      const row = rows.get(t) ?? { t };
      row[s.key] = p.price;
      rows.set(t, row);
    }
  }
  const data = [...rows.values()].sort((a, b) => a.t! - b.t!);
  const span = data.length > 1 ? data.at(-1)!.t! - data[0]!.t! : 0;
  const tick = span > 2 * 86_400_000 ? 'D MMM' : span > 3_600_000 ? 'D MMM HH:mm' : 'HH:mm:ss';
  return (
    <LineChart
      h={height}
      data={data}
      dataKey="t"
      series={withPoints.map((s, i) => ({ name: s.key, label: s.label, color: COLORS[series.indexOf(s) % COLORS.length] ?? COLORS[i % COLORS.length]! }))}
      curveType="stepAfter"
      connectNulls
      withDots={data.length <= 60}
      withLegend
      legendProps={{ verticalAlign: 'bottom', height: 32 }}
      unit="¢"
      xAxisProps={{ type: 'number', scale: 'time', domain: ['dataMin', 'dataMax'], tickFormatter: (t: number) => dayjs(t).format(tick), minTickGap: 24 }}
      yAxisProps={{ domain: [0, 100], ticks: [0, 25, 50, 75, 100], width: 48 }}
      tooltipProps={{ labelFormatter: (t) => formatDateTime(Number(t)) }}
      tooltipAnimationDuration={120}
      gridAxis="xy"
      role="img"
      aria-label="Trade prices over time"
    />
  );
}

/**
 * A YES book's depth: the cumulative quantity bid at each price or better (green, stepping down to
 * the left of the spread) and offered (red, stepping up to its right), on a 0–100¢ axis.
 */
export function DepthChartView({ bids, asks, height }: { bids: DepthPoint[]; asks: DepthPoint[]; height: number }) {
  const cum = (levels: DepthPoint[]) => {
    let total = 0;
    return levels.map((l) => {
      total += l.quantity;
      return { price: l.price, total };
    });
  };
  const b = cum(bids);
  const a = cum(asks);
  // Bids hold their total down to the next lower price (to 0¢ after the last); asks up to the next higher (to 100¢).
  const data = [
    ...[...b].reverse().flatMap((p, i, all) => [{ price: i === 0 ? 0 : all[i - 1]!.price, bids: p.total }, { price: p.price, bids: p.total }]),
    ...a.flatMap((p, i) => [{ price: p.price, asks: p.total }, { price: a[i + 1]?.price ?? 100, asks: p.total }]),
  ];
  return (
    <AreaChart
      h={height}
      data={data}
      dataKey="price"
      series={[
        { name: 'bids', label: 'Bids for YES (cumulative)', color: 'teal.6' },
        { name: 'asks', label: 'Offers of YES (cumulative)', color: 'red.6' },
      ]}
      curveType="linear"
      connectNulls={false}
      withDots={false}
      valueFormatter={(v) => `${number.format(v)} shares`}
      xAxisProps={{ type: 'number', domain: [0, 100], ticks: [0, 25, 50, 75, 100], tickFormatter: (p: number) => `${p}¢` }}
      yAxisProps={{ allowDecimals: false, width: 48, interval: 0, tickFormatter: (v: number) => number.format(v) }}
      tooltipProps={{ labelFormatter: (p) => `${String(p)}¢` }}
      tooltipAnimationDuration={120}
      gridAxis="xy"
      fillOpacity={0.3}
      role="img"
      aria-label={`Depth: ${b.at(-1)?.total ?? 0} bid, ${a.at(-1)?.total ?? 0} offered`}
    />
  );
}
