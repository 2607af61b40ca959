import { Code, Table, Text } from '@mantine/core';

type Json = Record<string, unknown> | null | undefined;

function asObject(value: unknown): Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    try {
      return asObject(JSON.parse(value));
    } catch {
      return { value };
    }
  }
  return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

function show(value: unknown) {
  if (value === undefined) return <Text span c="dimmed" size="xs">(none)</Text>;
  if (value === null || value === '') return <Text span c="dimmed" size="xs">empty</Text>;
  if (typeof value === 'object') {
    // Rights lists read better one grant per line.
    if (Array.isArray(value) && value.every((v) => v && typeof v === 'object' && 'name' in v)) {
      return (
        <Code block fz="xs">
          {value.map((v: { name: string; canView?: boolean; canEdit?: boolean }) => `${v.name}: ${v.canEdit ? 'view + edit' : v.canView ? 'view' : 'none'}`).join('\n') || '(none)'}
        </Code>
      );
    }
    return <Code block fz="xs">{JSON.stringify(value, null, 1)}</Code>;
  }
  return (
    <Text span size="xs" style={{ wordBreak: 'break-word' }}>
      {String(value)}
    </Text>
  );
}

/** Fields that differ between two versions of a record (a create has only "after", a delete only "before"). */
export function changedFields(before: Json, after: Json): string[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys.filter((k) => JSON.stringify(before?.[k]) !== JSON.stringify(after?.[k]));
}

export function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  const b = asObject(before);
  const a = asObject(after);
  const keys = changedFields(b, a);
  if (keys.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No field changed.
      </Text>
    );
  }
  return (
    <Table withTableBorder withColumnBorders fz="xs" verticalSpacing={4} data-testid="audit-diff">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="22%">Field</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((k) => (
          <Table.Tr key={k}>
            <Table.Td>
              <Text span size="xs" fw={600}>
                {k}
              </Text>
            </Table.Td>
            <Table.Td bg={b && k in b ? 'var(--mantine-color-red-light)' : undefined}>{show(b?.[k])}</Table.Td>
            <Table.Td bg={a && k in a ? 'var(--mantine-color-teal-light)' : undefined}>{show(a?.[k])}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
