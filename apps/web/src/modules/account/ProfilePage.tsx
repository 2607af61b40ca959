import { Badge, Button, Group, Paper, PasswordInput, SimpleGrid, Stack, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import { SUPERADMIN_ROLE, updateProfileBody, type AdminDetail } from '@pitboss/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { IconDevices, IconUser } from '@tabler/icons-react';
import { DateTime } from '../../components/DateTime';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { callApi, fetchApi } from '../../lib/api';
import { useSchemaForm } from '../../lib/form';
import { queryClient } from '../../lib/queryClient';
import { toast } from '../../lib/toast';
import { setAdmin } from '../../stores/auth';
import { SessionsPanel } from './SessionsPanel';

const profileQuery = { queryKey: ['profile'], queryFn: ({ signal }: { signal: AbortSignal }) => fetchApi('GET /api/admin/profile', { signal }) };

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

function ProfileForm({ profile }: { profile: AdminDetail }) {
  const form = useSchemaForm(updateProfileBody, { name: profile.name, email: profile.email, currentPassword: '' });
  const [saving, setSaving] = useState(false);
  const { reset } = form;
  useEffect(() => reset({ name: profile.name, email: profile.email, currentPassword: '' }), [profile.name, profile.email, reset]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body = await form.validate();
    if (!body) return;
    if (!emailChanged) delete (body as { currentPassword?: string }).currentPassword;
    setSaving(true);
    const res = await callApi('PUT /api/admin/profile', { body });
    setSaving(false);
    if (!res.success || !res.result) {
      if (res.errors) form.setErrors(res.errors);
      toast.error(res.message);
      return;
    }
    setAdmin(res.result);
    queryClient.setQueryData(['profile'], res.result);
    toast.success(res.message || 'Profile updated');
  }

  const emailChanged = form.values.email.trim().toLowerCase() !== profile.email;
  const dirty = form.values.name !== profile.name || form.values.email !== profile.email;
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Title order={3} fz="h5">
          Edit profile
        </Title>
        <TextInput label="Name" autoComplete="name" required {...form.textProps('name')} />
        <TextInput label="Email" type="email" autoComplete="email" required {...form.textProps('email')} />
        {emailChanged && (
          <PasswordInput
            label="Current password"
            description="Needed to change your email; a notice goes to the old address"
            autoComplete="current-password"
            required
            {...form.textProps('currentPassword')}
          />
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" disabled={!dirty || saving} onClick={() => reset({ name: profile.name, email: profile.email, currentPassword: '' })}>
            Cancel
          </Button>
          <Button type="submit" loading={saving} disabled={!dirty}>
            Save profile
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function ProfilePage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'sessions' ? 'sessions' : 'account';
  return (
    <>
      <PageHeader title="Profile" description="Your administrator account." />
      <Tabs value={tab} onChange={(v) => setParams(v === 'sessions' ? { tab: 'sessions' } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="account" leftSection={<IconUser size={14} />}>
            Account
          </Tabs.Tab>
          <Tabs.Tab value="sessions" leftSection={<IconDevices size={14} />}>
            Sessions
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="account">
          <AccountTab />
        </Tabs.Panel>
        <Tabs.Panel value="sessions">
          <Paper withBorder p="md" radius="md">
            <SessionsPanel />
          </Paper>
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

function AccountTab() {
  const query = useQuery(profileQuery);
  const profile = query.data;
  return (
      <QueryStatus query={query} loadingLabel="Loading your profile">
        {profile ? (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <Paper withBorder p="md" radius="md">
              <Stack gap="sm">
                <Title order={3} fz="h5">
                  Account
                </Title>
                <Detail label="Name">{profile.name}</Detail>
                <Detail label="Email">{profile.email}</Detail>
                <Detail label="Role">
                  <Badge variant="light">{profile.role === SUPERADMIN_ROLE ? 'Super admin' : 'Sub-admin'}</Badge>
                </Detail>
                <Detail label="Last sign-in">{profile.lastLoginAt ? <DateTime value={profile.lastLoginAt} /> : '—'}</Detail>
                {profile.role !== SUPERADMIN_ROLE ? (
                  <Detail label="Rights">
                    {profile.restriction.length === 0 ? (
                      <Text size="sm" c="dimmed">
                        No module rights: only the dashboard and your account pages.
                      </Text>
                    ) : (
                      <Table withTableBorder mt={4}>
                        <Table.Thead>
                          <Table.Tr>
                            <Table.Th>Module</Table.Th>
                            <Table.Th>Access</Table.Th>
                          </Table.Tr>
                        </Table.Thead>
                        <Table.Tbody>
                          {profile.restriction.map((r) => (
                            <Table.Tr key={r.name}>
                              <Table.Td>{r.name}</Table.Td>
                              <Table.Td>{r.canEdit ? 'View and edit' : r.canView ? 'View only' : 'None'}</Table.Td>
                            </Table.Tr>
                          ))}
                        </Table.Tbody>
                      </Table>
                    )}
                  </Detail>
                ) : null}
              </Stack>
            </Paper>
            <Paper withBorder p="md" radius="md">
              <ProfileForm profile={profile} />
            </Paper>
          </SimpleGrid>
        ) : null}
      </QueryStatus>
  );
}
