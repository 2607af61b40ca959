import { Alert, Button, Code, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { TemplatePreview as Preview } from '@pitboss/contract';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { callApi } from '../../lib/api';
import { SandboxedHtml } from './SandboxedHtml';

interface Variable {
  name: string;
  description: string;
  sample: string;
}

/**
 * A template's Preview tab: the subject and body being edited (saved or not), filled with sample
 * values the admin may change, rendered by the server exactly as a mail would be (values escaped,
 * body sanitised) and shown in a sandboxed frame; its variables listed with what they hold.
 */
export function TemplatePreview({ id, values, record }: { id: string; values: Record<string, unknown>; record: Record<string, unknown> | undefined }) {
  const variables = (record?.variables as Variable[] | undefined) ?? [];
  const [vars, setVars] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<{ message: string; errors?: Record<string, string> } | null>(null);
  const [loading, setLoading] = useState(false);
  const subject = typeof values.subject === 'string' ? values.subject : undefined;
  const html = typeof values.html === 'string' ? values.html : undefined;

  const render = useCallback(async () => {
    setLoading(true);
    const res = await callApi('POST /api/admin/email-templates/:id/preview', { params: { id }, body: { subject, html, vars } });
    setLoading(false);
    if (res.success && res.result) {
      setPreview(res.result);
      setError(null);
    } else {
      setError({ message: res.message, ...(res.errors ? { errors: res.errors } : {}) });
    }
  }, [id, subject, html, vars]);

  // Follows the form: a change of subject, body or a sample value renders again (after a pause).
  useEffect(() => {
    const t = setTimeout(() => void render(), 350);
    return () => clearTimeout(t);
  }, [render]);

  return (
    <Stack gap="md" data-testid="template-preview">
      <Group justify="space-between" align="flex-end">
        <Text size="sm" c="dimmed">
          The mail as it would be sent now, with the sample values below (unsaved changes included). Scripts cannot run here.
        </Text>
        <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} loading={loading} onClick={() => void render()}>
          Refresh preview
        </Button>
      </Group>
      {error && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />} p="sm" data-testid="preview-error">
          <Text size="sm">{error.message}</Text>
        </Alert>
      )}
      {preview && (
        <Paper withBorder p="sm" radius="sm">
          <Stack gap={6}>
            <Text size="sm">
              <Text span fw={600}>
                Subject:{' '}
              </Text>
              <span data-testid="preview-subject">{preview.subject}</span>
            </Text>
            <SandboxedHtml html={preview.html} title="Mail preview" />
            <details>
              <summary style={{ cursor: 'pointer', fontSize: 'var(--mantine-font-size-sm)' }}>Plain-text part</summary>
              <Code block mt="xs">
                {preview.text}
              </Code>
            </details>
          </Stack>
        </Paper>
      )}
      <Title order={5}>Variables</Title>
      <Text size="sm" c="dimmed">
        Use them as {'{{name}}'} in the subject and body, or {'{{#name}}…{{/name}}'} for a part shown only when the value is not empty. Any other name is refused on save.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {variables.map((v) => (
          <TextInput
            key={v.name}
            label={<Code>{`{{${v.name}}}`}</Code>}
            description={v.description}
            value={vars[v.name] ?? v.sample}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setVars((old) => ({ ...old, [v.name]: value }));
            }}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
