import type { ResourceSpec } from '@pitboss/contract';
import { Code, Drawer, Stack, Table, Text, Title } from '@mantine/core';
import type { ResourceRecord } from '../api';
import { AuditDiff } from './AuditDiff';
import { RecordCell } from './CellValue';
import { RecordActions } from './RecordActions';
import { recordContext } from '../recordContext';

/** Every declared column of one record, as a two-column table. */
export function RecordDetails({ spec, record, skip = [] }: { spec: ResourceSpec; record: ResourceRecord; skip?: readonly string[] }) {
  return (
    <Table withTableBorder verticalSpacing={6} fz="sm" data-testid="record-details">
      <Table.Tbody>
        {spec.columns
          .filter((c) => !skip.includes(c.key))
          .map((c) => (
            <Table.Tr key={c.key}>
              <Table.Th w="30%">{c.label}</Table.Th>
              <Table.Td>
                {c.type === 'json' && record[c.key] !== null && record[c.key] !== undefined ? (
                  <Code block fz="xs">
                    {JSON.stringify(record[c.key], null, 1)}
                  </Code>
                ) : c.type === 'longtext' ? (
                  <Text size="sm" style={{ wordBreak: 'break-word' }}>
                    {String(record[c.key] ?? '—')}
                  </Text>
                ) : (
                  <RecordCell spec={spec} column={c} record={record} />
                )}
              </Table.Td>
            </Table.Tr>
          ))}
      </Table.Tbody>
    </Table>
  );
}

/** A record's details in a drawer (resources without a page of their own); audit entries (before/after) as a diff. */
export function RecordDrawer({ spec, record, onClose, onChange }: { spec: ResourceSpec; record: ResourceRecord | null; onClose: () => void; onChange?: (record: ResourceRecord) => void }) {
  const hasDiff = spec.columns.some((c) => c.key === 'before') && spec.columns.some((c) => c.key === 'after');
  return (
    <Drawer opened={record !== null} onClose={onClose} position="right" size="lg" title={<Text fw={600}>{spec.label}</Text>}>
      {record && (
        <Stack gap="md">
          {spec.actions?.length ? <RecordActions spec={spec} record={record} onDone={(next) => next && onChange?.(next)} /> : null}
          {recordContext(spec.name, record._id)}
          <RecordDetails spec={spec} record={record} skip={hasDiff ? ['before', 'after'] : []} />
          {hasDiff && (
            <>
              <Title order={5}>Changes</Title>
              <AuditDiff before={record.before} after={record.after} />
            </>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
