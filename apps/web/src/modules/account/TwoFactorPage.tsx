import { Paper } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';

export default function TwoFactorPage() {
  return (
    <>
      <PageHeader title="Two-factor authentication" />
      <Paper withBorder radius="md">
        <EmptyState icon={<IconShieldCheck size={24} />} title="Two-factor authentication is not available yet">
          Accounts are protected by password only for now. This page will let you turn on an authenticator app once the feature ships.
        </EmptyState>
      </Paper>
    </>
  );
}
