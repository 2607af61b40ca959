import { Alert, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { callApi } from '../../lib/api';
import { SandboxedHtml } from './SandboxedHtml';

/** A CMS page's Preview tab: the body being edited, sanitised by the server as it will be saved and served, in a sandboxed frame. */
export function CmsPreview({ values }: { values: Record<string, unknown> }) {
  const body = typeof values.body === 'string' ? values.body : '';
  const title = typeof values.title === 'string' ? values.title : '';
  const [html, setHtml] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const t = setTimeout(async () => {
      const res = await callApi('POST /api/admin/cms-pages/preview', { body: { body } });
      if (res.success && res.result) {
        setHtml(res.result.html);
        setError(null);
      } else setError(res.message);
    }, 300);
    return () => clearTimeout(t);
  }, [body]);

  return (
    <Stack gap="sm" data-testid="cms-preview">
      <Text size="sm" c="dimmed">
        The page as the platform receives it (unsaved changes included): the body after unsafe content is removed.
      </Text>
      {error && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />} p="sm">
          <Text size="sm">{error}</Text>
        </Alert>
      )}
      {html !== null && (
        <>
          <Title order={3}>{title}</Title>
          <SandboxedHtml html={html} title="Page preview" height={480} />
        </>
      )}
    </Stack>
  );
}
