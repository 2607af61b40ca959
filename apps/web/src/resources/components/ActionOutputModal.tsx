import type { ActionOutput, ActionSpec } from '@pitboss/contract';
import { Alert, Button, Group, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';

/** RFC 4180 cells, with the same formula guard as the server's exports (a cell starting = + - @ is prefixed with '). */
function csvCell(v: string): string {
  const guarded = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

export function toCsv(columns: readonly { key: string; label: string }[], rows: readonly Record<string, string>[]): string {
  const lines = [columns.map((c) => csvCell(c.label)).join(','), ...rows.map((r) => columns.map((c) => csvCell(r[c.key] ?? '')).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

function download(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/**
 * What an action with a declared `output` handed back (codes just generated, a verification's
 * comparison), shown once: its summary, its rows, and the CSV download when declared. Nothing of it
 * is kept by the page once closed.
 */
export function ActionOutputModal({ action, output, onClose }: { action: ActionSpec | null; output: ActionOutput | null; onClose: () => void }) {
  const spec = action?.output;
  return (
    <Modal opened={Boolean(spec && output)} onClose={onClose} title={<Text fw={600}>{spec?.title}</Text>} size="xl" centered>
      {spec && output && (
        <Stack data-testid="action-output">
          <Alert color={output.ok ? 'green' : 'red'} variant="light" data-ok={output.ok}>
            {output.summary}
          </Alert>
          {spec.note && (
            <Text size="sm" c="dimmed">
              {spec.note}
            </Text>
          )}
          {output.rows.length > 0 && (
            <ScrollArea.Autosize mah={420}>
              <Table striped withTableBorder fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    {spec.columns.map((c) => (
                      <Table.Th key={c.key}>{c.label}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {output.rows.map((r, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: rows are shown once, in order, never reordered
                    <Table.Tr key={i}>
                      {spec.columns.map((c) => (
                        <Table.Td key={c.key} ff={c.key === 'code' ? 'monospace' : undefined}>
                          {r[c.key] ?? ''}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          )}
          <Group justify="flex-end">
            {spec.csv && output.rows.length > 0 && (
              <Button variant="default" onClick={() => download(output.filename ?? spec.csv!, toCsv(spec.columns, output.rows))}>
                Download CSV
              </Button>
            )}
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
