import { formatBps, ODDS_TOTAL_BPS, percentToBps } from '@pitboss/contract';
import { Button, Group, Input, Stack, Table, Text, TextInput } from '@mantine/core';
import { useFieldOptions } from '../../resources/hooks/useFieldOptions';
import type { FormFieldProps } from '../../resources/components/FormField';

type Odds = { tierId: string; percent: string }[];

/**
 * A percentage per record of a small catalogue (card tiers: `optionsFrom`), two decimals at most, with
 * the running total shown and held to 100.00 % before the form is sent (the server checks it again).
 * Empty (every box blank) is "no odds": a pack then uses the settings' odds.
 */
export function OddsField({ field, value, onChange, error, disabled }: FormFieldProps) {
  const odds: Odds = Array.isArray(value) ? (value as Odds) : [];
  const { options, loading, error: loadError } = useFieldOptions(field, odds.map((o) => o.tierId));
  const percentOf = (tierId: string) => odds.find((o) => o.tierId === tierId)?.percent ?? '';
  const set = (tierId: string, percent: string) => {
    const next = options.map((o) => ({ tierId: o.value, percent: o.value === tierId ? percent : percentOf(o.value) })).filter((o) => o.percent.trim() !== '');
    onChange(next.length ? next : null);
  };
  const bps = odds.map((o) => percentToBps(o.percent));
  const badEntry = bps.some((b) => b === null);
  const total = bps.reduce<number>((s, b) => s + (b ?? 0), 0);
  const sumOk = odds.length === 0 || (!badEntry && total === ODDS_TOTAL_BPS);
  const localError = badEntry ? 'Each percentage: 0 to 100 with at most two decimals' : !sumOk ? `The odds sum to ${formatBps(total)} %, not 100.00 %` : undefined;
  return (
    <Input.Wrapper label={field.label} description={field.description} error={error ?? localError ?? (loadError ? `Could not load the tiers: ${loadError.message}` : undefined)} withAsterisk={field.required} data-field={field.key}>
      <Stack gap={4} mt={4}>
        {loading && <Text size="sm" c="dimmed">Loading tiers…</Text>}
        {!loading && options.length === 0 && <Text size="sm" c="dimmed">No card tiers yet: add them under Card › Card Tier.</Text>}
        {options.length > 0 && (
          <Table withRowBorders={false} verticalSpacing={2} maw={420}>
            <Table.Tbody>
              {options.map((o) => (
                <Table.Tr key={o.value}>
                  <Table.Td>{o.label}</Table.Td>
                  <Table.Td w={140}>
                    <TextInput
                      aria-label={`${o.label} (%)`}
                      name={`${field.key}.${o.value}`}
                      size="xs"
                      inputMode="decimal"
                      placeholder="0.00"
                      rightSection={<Text size="xs">%</Text>}
                      readOnly={disabled}
                      value={percentOf(o.value)}
                      onChange={(e) => set(o.value, e.currentTarget.value.replace(',', '.'))}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td fw={600}>Total</Table.Td>
                <Table.Td fw={600} c={sumOk ? undefined : 'red'} data-testid={`${field.key}-total`}>
                  {formatBps(total)} %
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        )}
        {!disabled && odds.length > 0 && !field.required && (
          <Group>
            <Button variant="subtle" size="compact-xs" onClick={() => onChange(null)}>
              Clear (use the settings’ odds)
            </Button>
          </Group>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
