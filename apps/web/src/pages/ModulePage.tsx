import { Badge, Paper } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { useMatches } from 'react-router';
import type { RouteHandle } from '../app/routes';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';
import { usePageAccess } from '../stores/auth';

/** Every private route without its own page yet: its title from the route table and an honest empty state. */
export default function ModulePage() {
  const route = (useMatches().at(-1)?.handle as RouteHandle | undefined)?.route;
  const access = usePageAccess();
  const title = route?.title ?? 'Page';
  return (
    <>
      <PageHeader
        title={title}
        actions={
          route?.restriction ? (
            <Badge variant="light" color={access.canEdit ? 'indigo' : 'gray'}>
              {route.restriction}: {access.canEdit ? 'view and edit' : 'view only'}
            </Badge>
          ) : null
        }
      />
      <Paper withBorder radius="md">
        <EmptyState icon={<IconTools size={24} />} title="This module is not built yet">
          “{title}” is part of the product plan; its screens and data come in a later release.
        </EmptyState>
      </Paper>
    </>
  );
}
