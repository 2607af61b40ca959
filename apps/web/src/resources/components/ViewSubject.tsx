import { accessFor, recordPath, RESOURCES, type ViewSubjectSpec } from '@pitboss/contract';
import { Anchor, Code, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useAdmin } from '../../stores/auth';
import { fetchRecord, resourceKeys, type ResourceRecord } from '../api';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * Which record a list view is about (`/event-resolution/7`: the event), under its heading: its title
 * and code from the list's first row (every row carries them), else read from its own resource when
 * the admin may view it; a link to its page for those who may.
 */
export function ViewSubject({ subject, id, firstRow, loading }: { subject: ViewSubjectSpec; id: string; firstRow: ResourceRecord | undefined; loading: boolean }) {
  const admin = useAdmin();
  const target = RESOURCES[subject.resource];
  const canView = Boolean(target && admin && (target.restriction === null || accessFor(admin, target.restriction).canView));
  const fromRow = firstRow ? { title: text(firstRow[subject.rowTitle]), code: subject.rowCode ? text(firstRow[subject.rowCode]) : undefined } : null;
  const query = useQuery({
    queryKey: resourceKeys.record(subject.resource, id),
    queryFn: ({ signal }) => fetchRecord({ name: subject.resource }, id, signal),
    enabled: canView && !loading && !fromRow?.title,
    staleTime: 60_000,
    retry: false,
  });
  const title = fromRow?.title ?? text(query.data?.[subject.title]);
  const code = fromRow?.code ?? (subject.code ? text(query.data?.[subject.code]) : undefined);
  const page = target?.pages.update && canView ? recordPath(target.pages.update, id) : null;
  const name = title ?? (loading || query.isLoading ? '…' : query.isError ? `No ${subject.label.toLowerCase()} #${id}` : `${subject.label} #${id}`);
  return (
    <Group gap={8} mt={-8} data-testid="view-subject">
      <Text size="sm" c="dimmed">
        {subject.label}
      </Text>
      {page && title ? (
        <Anchor component={Link} to={page} fw={600}>
          {name}
        </Anchor>
      ) : (
        <Text fw={600}>{name}</Text>
      )}
      {code && <Code>{code}</Code>}
    </Group>
  );
}
