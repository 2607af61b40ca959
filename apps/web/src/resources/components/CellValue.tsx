import { columnValueOption, formatUnits, stateOf, thumbnailUrl, type ColumnSpec, type ColumnType, type ResourceSpec } from '@pitboss/contract';
import { Anchor, Badge, Box, Code, Group, Image, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { DateTime } from '../../components/DateTime';
import { displayDateTime } from '../../lib/dates';
import { groupThousands, tableAmount } from '../../lib/amounts';
import { useShownDecimals } from '../coinUnits';
import { imageSrc } from '../../lib/upload';

const STATUS_COLORS: Record<string, string> = {
  active: 'teal',
  success: 'teal',
  create: 'teal',
  inactive: 'gray',
  disabled: 'red',
  delete: 'red',
  denied: 'red',
  update: 'blue',
  bulk: 'violet',
  login: 'cyan',
};

export function statusColor(value: string): string {
  return STATUS_COLORS[value.toLowerCase()] ?? 'gray';
}

/** A moment in the app's one format (see lib/dates): relative when recent, absolute otherwise. */
export function formatDate(value: unknown): string {
  return displayDateTime(value);
}

/** An API name as words: `end-sessions` → "End sessions". */
export function humanise(value: string): string {
  const text = value.replace(/[_-]+/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const Empty = () => (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

/**
 * A tag shows whole: a long one (a market's ticker, "every open market") breaks over lines at its
 * hyphens and spaces where a narrow column would have cut it to "KXCPI-26DEC-…", the same for each.
 */
const TAG_WRAPS = {
  root: { height: 'auto', maxWidth: '100%', paddingBlock: 1 },
  label: { whiteSpace: 'normal', overflow: 'visible', overflowWrap: 'break-word', lineHeight: 1.3, textAlign: 'left' },
} as const;

/** Characters of a `code` value a table shows whole; a longer one shows its ends (`compact`). */
const CODE_MAX = 24;

/**
 * The least width of a table's title column (the declaration's `titleField`, a text) when its titles
 * are long: a ticket's subject reads as words, not ten letters squeezed by the columns beside it.
 * Wider when the table has room; a longer title ends in "…", whole on hover.
 */
export const HEADLINE_MIN_WIDTH = '14rem';

/**
 * A word of a table's text longer than this many characters (a 32-character username, an email
 * address) may break anywhere, over two lines at most and whole on hover, so that it never sets its
 * column's least width, the column then at least `LONG_WORD_MIN_WIDTH` wide: unbroken, one such name
 * made a fitting list scroll sideways. Shorter words wrap only between words, as before.
 */
const LONG_WORD = 16;
const LONG_WORD_MIN_WIDTH = '10rem';
const longestWord = (text: string) => text.split(/\s+/).reduce((n, w) => Math.max(n, w.length), 0);

/** A status badge never truncates: "Awaiting review" must read whole however narrow the column. */
export const BADGE_STYLES = { root: { overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible' } } as const;

/**
 * One cell, rendered by the column's declared type. `state` is the record's state from the
 * resource's machine (label and colour), used for its `status` column.
 */
export function CellValue({ type, value, state, hint, compact, falseIsAlert, headline }: { type: ColumnType; value: unknown; state?: { label: string; color: string } | undefined; hint?: string | undefined; compact?: boolean | undefined; falseIsAlert?: boolean | undefined; headline?: boolean | undefined }) {
  if (value === null || value === undefined || value === '') return type === 'bool' ? <Badge color="gray" variant="light">No</Badge> : <Empty />;
  if (headline && (type === 'text' || type === 'longtext')) {
    // The record's title in a table: wide enough to read (a short one, a name, takes about its own
    // width: `ch` is a digit's, wider than most letters), on one line, whole on hover.
    const text = String(value);
    return (
      <Text span size="sm" lineClamp={1} title={hint ?? text} miw={`min(${HEADLINE_MIN_WIDTH}, ${text.length}ch)`} style={{ overflowWrap: 'anywhere' }} data-headline="">
        {text}
      </Text>
    );
  }
  switch (type) {
    case 'date':
      // In a table the day and the time may take two lines, so a narrow column still shows both.
      return <DateTime value={value} wrap={compact} />;
    case 'status':
      return (
        <Badge color={state?.color ?? statusColor(String(value))} variant="light" styles={BADGE_STYLES}>
          {state?.label ?? humanise(String(value))}
        </Badge>
      );
    case 'bool':
      return value === true || value === 'true' ? (
        <Badge color="teal" variant="light">
          Yes
        </Badge>
      ) : (
        // "No" is an alarm only where the column says so (a failed sign-in); a customer is not a house
        // account, an order not post-only: neutral, as an empty value.
        <Badge color={falseIsAlert ? 'red' : 'gray'} variant="light">
          No
        </Badge>
      );
    case 'tags': {
      const list = Array.isArray(value) ? value : [value];
      if (list.length === 0) return <Empty />;
      return (
        <Group gap={4} wrap="wrap">
          {list.map((t, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: tags may repeat; the position tells twins apart
            <Badge key={`${String(t)}-${i}`} variant="outline" color="gray" tt="none" radius="sm" styles={TAG_WRAPS}>
              {String(t)}
            </Badge>
          ))}
        </Group>
      );
    }
    case 'links': {
      // Only http(s) links are ever made anchors (the API accepts nothing else; an older value is shown as text).
      const list = (Array.isArray(value) ? value : [value]).map(String).filter((v) => v !== '');
      if (list.length === 0) return <Empty />;
      return (
        <Stack gap={2}>
          {list.map((href, i) =>
            /^https?:\/\//i.test(href) ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: links may repeat; the position tells twins apart
              <Anchor key={`${href}-${i}`} href={href} target="_blank" rel="noopener noreferrer" size="sm" style={{ wordBreak: 'break-all' }}>
                {href}
              </Anchor>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: as above
              <Text key={`${href}-${i}`} size="sm">
                {href}
              </Text>
            ),
          )}
        </Stack>
      );
    }
    case 'code': {
      // In a table, a long value (an address, a signature, a hash) shows its two ends, whole on hover
      // and in the record's page, so the row's other columns and actions stay in view.
      const text = String(value);
      if (compact && text.length > CODE_MAX) {
        return (
          <Code style={{ whiteSpace: 'nowrap' }} title={text} aria-label={text}>
            {`${text.slice(0, CODE_MAX - 10)}…${text.slice(-8)}`}
          </Code>
        );
      }
      return <Code style={{ whiteSpace: 'nowrap' }}>{text}</Code>;
    }
    case 'json': {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return (
        <Text span ff="monospace" size="xs" lineClamp={1} title={text} maw={260}>
          {text}
        </Text>
      );
    }
    case 'longtext':
      return (
        <Text span size="sm" lineClamp={1} title={String(value)} maw={320}>
          {String(value)}
        </Text>
      );
    case 'number':
      return (
        <Text span size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {typeof value === 'number' ? value.toLocaleString() : String(value)}
        </Text>
      );
    case 'balances': {
      const list = Array.isArray(value) ? (value as { coin: string; decimals: number; available: string; held: string }[]) : [];
      if (list.length === 0) return <Empty />;
      return (
        <Stack gap={2}>
          {list.map((b) => (
            <Text key={b.coin} size="sm" ff="monospace">
              {groupThousands(formatUnits(b.available, b.decimals))} {b.coin} available
              {b.held !== '0' ? ` · ${groupThousands(formatUnits(b.held, b.decimals))} held` : ''}
            </Text>
          ))}
        </Stack>
      );
    }
    case 'image':
      // The thumbnail (a few kB), never the full image.
      return <Image src={imageSrc(thumbnailUrl(String(value)))} alt="" w={40} h={40} fit="contain" radius="sm" loading="lazy" data-thumbnail="" />;
    case 'color':
      return (
        <Group gap={6} wrap="nowrap">
          <Box w={16} h={16} style={{ borderRadius: 4, background: /^#[0-9a-fA-F]{6}$/.test(String(value)) ? String(value) : 'transparent', border: '1px solid var(--mantine-color-default-border)' }} />
          <Code>{String(value)}</Code>
        </Group>
      );
    case 'money':
      // In a table, rounded to the coin's display decimals; elsewhere (a record's page) as the API
      // writes it. Either way grouped by thousands, on one line, digits of equal width.
      return compact ? (
        <MoneyCell text={String(value)} />
      ) : (
        <Text span size="sm" style={MONEY_STYLE}>
          {groupThousands(String(value))}
        </Text>
      );
    default: {
      const text = String(value);
      const long = compact && longestWord(text) > LONG_WORD;
      return (
        <Text span size="sm" lineClamp={2} title={hint ?? text} {...(long ? { miw: `min(${LONG_WORD_MIN_WIDTH}, ${text.length}ch)`, style: { overflowWrap: 'anywhere' } } : {})}>
          {text}
        </Text>
      );
    }
  }
}

const MONEY_STYLE = { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' } as const;

/**
 * An amount in a table ("4372.5 USDC" as the API writes it): rounded to the decimals its coin shows,
 * trailing zeros kept ("4,372.50 USDC"). A rounded value is marked ("≈12.3457 SOL", "<0.0001 SOL")
 * and gives the exact amount on hover and on keyboard focus, and to a screen reader in its place.
 */
function MoneyCell({ text }: { text: string }) {
  const places = useShownDecimals();
  const amount = tableAmount(text, places);
  if (!amount.rounded) {
    return (
      <Text span size="sm" style={MONEY_STYLE}>
        {amount.shown}
      </Text>
    );
  }
  return (
    <Tooltip label={amount.exact} events={{ hover: true, focus: true, touch: true }} openDelay={150}>
      <Text span size="sm" style={MONEY_STYLE} tabIndex={0} data-exact={amount.exact}>
        <span aria-hidden>{amount.shown}</span>
        <VisuallyHidden>{amount.exact}</VisuallyHidden>
      </Text>
    </Tooltip>
  );
}

/**
 * A record's cell as its declaration says: the state of its `status` column (the machine's label and
 * colour), a value's declared label (its filter's options: "Sub modules", not `sub-modules`; the API
 * name on hover), and the column's `hint` field on hover (the raw user agent behind "Chrome 131 on macOS").
 */
export function RecordCell({ spec, column, record, compact }: { spec: ResourceSpec; column: ColumnSpec; record: Record<string, unknown>; compact?: boolean | undefined }) {
  const headline = compact && isHeadline(spec, column);
  const value = record[column.key];
  if (column.key === 'status' && spec.states) return <CellValue type={column.type} value={value} state={stateOf(spec, record.status as string)} />;
  if (column.moment) return <MomentCell moment={column.moment} scheduled={value} actual={column.moment.actual ? record[column.moment.actual] : undefined} compact={compact} />;
  const option = column.type === 'status' || column.type === 'text' ? columnValueOption(spec, column, value) : undefined;
  const label = option?.label;
  const hint = column.hint ? record[column.hint] : undefined;
  const hintText = typeof hint === 'string' && hint ? hint : label !== undefined ? String(value) : undefined;
  if (label !== undefined && column.type === 'status') return <CellValue type="status" value={value} state={{ label, color: option?.color ?? statusColor(String(value)) }} />;
  return <CellValue type={column.type} value={label ?? value} hint={hintText} compact={compact} falseIsAlert={column.falseIsAlert} headline={headline} />;
}

/** A scheduled moment in words (`ColumnSpec.moment`): "Closes in 5 hours", or once it happened "Closed 3 hours ago". */
function MomentCell({ moment, scheduled, actual, compact }: { moment: NonNullable<ColumnSpec['moment']>; scheduled: unknown; actual: unknown; compact?: boolean | undefined }) {
  const happened = actual !== null && actual !== undefined && actual !== '';
  const shown = happened ? actual : scheduled;
  const at = Date.parse(String(shown ?? ''));
  if (Number.isNaN(at)) return <CellValue type="date" value={shown} compact={compact} />;
  const word = happened ? moment.past : at > Date.now() ? moment.future : null;
  return (
    <Text span size="sm" data-moment={happened ? 'past' : 'scheduled'}>
      {word && `${word} `}
      <DateTime value={shown} wrap={compact} />
    </Text>
  );
}

/** Whether a column is the record's title as a table shows it (its `titleField`, a text column). */
function isHeadline(spec: Pick<ResourceSpec, 'titleField'>, column: ColumnSpec): boolean {
  return column.key === spec.titleField && (column.type === 'text' || column.type === 'longtext');
}
