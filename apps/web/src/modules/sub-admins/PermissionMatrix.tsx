import { accessFor, isSuperAdmin, namedRightsOf, type RestrictionEntry, type RestrictionName } from '@pitboss/contract';
import { Alert, Badge, Button, Checkbox, Group, Input, Paper, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useAdmin } from '../../stores/auth';
import { normaliseRights } from './rights';
import { usePermissionCatalogue, type CatalogueGroup } from './usePermissionCatalogue';

interface Props {
  label: string;
  description?: string;
  value: unknown;
  onChange: (value: RestrictionEntry[]) => void;
  disabled?: boolean;
  error?: string;
}

type Grant = { canView: boolean; canEdit: boolean; rights?: string[] };
const NONE: Grant = { canView: false, canEdit: false };

/**
 * Rights held as a list of granted names; setting a name to nothing removes it. Edit and any named
 * right imply view; removing view removes them all.
 */
function withGrant(list: RestrictionEntry[], name: RestrictionName, grant: Grant): RestrictionEntry[] {
  const rights = grant.rights ?? [];
  const canView = grant.canView || grant.canEdit || rights.length > 0;
  const rest = list.filter((e) => e.name !== name);
  if (!canView) return rest;
  const at = list.findIndex((e) => e.name === name);
  const entry: RestrictionEntry = rights.length ? { name, canView, canEdit: grant.canEdit, rights } : { name, canView, canEdit: grant.canEdit };
  if (at < 0) return [...rest, entry];
  const copy = [...list];
  copy[at] = entry;
  return copy;
}

/**
 * The permission matrix: the catalogue's active sub modules grouped by
 * module, a row per restriction name with View / Edit, and "all" per module.
 * Ticking Edit ticks View; unticking View unticks Edit. A sub-admin cannot
 * hand out rights they do not hold, so those boxes are disabled for them.
 */
export function PermissionMatrix({ label, description, value, onChange, disabled, error }: Props) {
  const catalogue = usePermissionCatalogue();
  const admin = useAdmin();
  const rights = useMemo(() => normaliseRights(value), [value]);
  const byName = useMemo(() => new Map(rights.map((e) => [e.name, e])), [rights]);
  const grantOf = (name: RestrictionName): Grant => byName.get(name) ?? NONE;
  const mine = (name: RestrictionName): Grant => {
    if (admin && !isSuperAdmin(admin)) {
      const a = accessFor(admin, name);
      return { canView: a.canView, canEdit: a.canEdit, rights: [...(a.rights ?? [])] };
    }
    return { canView: true, canEdit: true, rights: namedRightsOf(name).map((r) => r.key) };
  };
  const rightLocked = (name: RestrictionName, right: string) => disabled || (!(mine(name).rights ?? []).includes(right) && !(grantOf(name).rights ?? []).includes(right));

  const groups: CatalogueGroup[] = useMemo(() => {
    const known = new Set(catalogue.groups.flatMap((g) => g.names));
    // Granted names the catalogue no longer lists (an inactive sub module) stay visible, so they can be removed.
    const other = rights.map((e) => e.name).filter((n) => !known.has(n));
    return other.length > 0 ? [...catalogue.groups, { module: 'Other rights', names: other }] : catalogue.groups;
  }, [catalogue.groups, rights]);

  const setGrant = (name: RestrictionName, grant: Grant) => onChange(withGrant(rights, name, grant));
  const setMany = (names: RestrictionName[], f: (current: Grant, name: RestrictionName) => Grant) => {
    let next = rights;
    for (const n of names) next = withGrant(next, n, f(grantOf(n), n));
    onChange(next);
  };
  const viewLocked = (name: RestrictionName) => disabled || (!mine(name).canView && !grantOf(name).canView);
  const editLocked = (name: RestrictionName) => disabled || (!mine(name).canEdit && !grantOf(name).canEdit);

  const counts = { view: rights.length, edit: rights.filter((r) => r.canEdit).length };

  return (
    <Input.Wrapper label={label} description={description} error={error} data-testid="permission-matrix">
      <Group gap="xs" my="xs">
        <Badge variant="light" color="blue">
          {counts.view} viewable
        </Badge>
        <Badge variant="light" color="teal">
          {counts.edit} editable
        </Badge>
        {!disabled && rights.length > 0 && (
          <Button size="compact-xs" variant="subtle" color="gray" onClick={() => onChange([])}>
            Clear all
          </Button>
        )}
      </Group>
      {catalogue.source === 'contract' && (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={16} />} p="xs" mb="xs">
          <Text size="xs">Showing every restriction name grouped by its section (the module catalogue is not available to you).</Text>
        </Alert>
      )}
      {catalogue.isLoading ? (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {Array.from({ length: 4 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders in a fixed order
            <Skeleton key={i} h={120} radius="md" />
          ))}
        </SimpleGrid>
      ) : catalogue.error ? (
        <Alert color="red" variant="light" p="xs">
          <Group justify="space-between">
            <Text size="sm">Could not load the permission catalogue: {catalogue.error.message}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void catalogue.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" verticalSpacing="sm" style={{ alignItems: 'start' }}>
          {groups.map((group) => {
            const allView = group.names.every((n) => grantOf(n).canView);
            const someView = !allView && group.names.some((n) => grantOf(n).canView);
            const allEdit = group.names.every((n) => grantOf(n).canEdit);
            const someEdit = !allEdit && group.names.some((n) => grantOf(n).canEdit);
            const groupViewLocked = group.names.every(viewLocked);
            const groupEditLocked = group.names.every(editLocked);
            // Named rights (approve…) get their own column in the groups that have any.
            const hasNamed = group.names.some((n) => namedRightsOf(n).length > 0);
            return (
              <Paper key={group.module} withBorder radius="md" p={0} style={{ overflow: 'hidden' }} data-module={group.module}>
                <Table verticalSpacing={6} horizontalSpacing="sm" fz="sm">
                  <Table.Thead bg="var(--mantine-color-gray-light)">
                    <Table.Tr>
                      <Table.Th>{group.module}</Table.Th>
                      <Table.Th w={70}>
                        <Checkbox
                          size="xs"
                          label="View"
                          aria-label={`All view in ${group.module}`}
                          checked={allView}
                          indeterminate={someView}
                          disabled={groupViewLocked}
                          onChange={() => setMany(group.names.filter((n) => !viewLocked(n)), (g) => (allView ? NONE : { ...g, canView: true }))}
                        />
                      </Table.Th>
                      <Table.Th w={70}>
                        <Checkbox
                          size="xs"
                          label="Edit"
                          aria-label={`All edit in ${group.module}`}
                          checked={allEdit}
                          indeterminate={someEdit}
                          disabled={groupEditLocked}
                          onChange={() =>
                            setMany(group.names.filter((n) => !editLocked(n)), (g) => (allEdit ? { ...g, canEdit: false } : { ...g, canView: true, canEdit: true }))
                          }
                        />
                      </Table.Th>
                      {hasNamed && <Table.Th>Rights</Table.Th>}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {group.names.map((name) => {
                      const g = grantOf(name);
                      return (
                        <Table.Tr key={name} data-right={name}>
                          <Table.Td>{name}</Table.Td>
                          <Table.Td>
                            <Checkbox
                              size="xs"
                              aria-label={`${name} view`}
                              checked={g.canView}
                              disabled={viewLocked(name)}
                              onChange={(e) => setGrant(name, e.currentTarget.checked ? { ...g, canView: true } : NONE)}
                            />
                          </Table.Td>
                          <Table.Td>
                            <Checkbox
                              size="xs"
                              aria-label={`${name} edit`}
                              checked={g.canEdit}
                              disabled={editLocked(name)}
                              onChange={(e) => setGrant(name, { ...g, canView: g.canView || e.currentTarget.checked, canEdit: e.currentTarget.checked })}
                            />
                          </Table.Td>
                          {hasNamed && (
                            <Table.Td>
                              <Stack gap={4}>
                                {namedRightsOf(name).map((r) => (
                                  <Checkbox
                                    key={r.key}
                                    size="xs"
                                    label={r.label}
                                    aria-label={`${name} ${r.label}`}
                                    checked={(g.rights ?? []).includes(r.key)}
                                    disabled={rightLocked(name, r.key)}
                                    onChange={(e) => {
                                      const others = (g.rights ?? []).filter((k) => k !== r.key);
                                      setGrant(name, { ...g, rights: e.currentTarget.checked ? [...others, r.key].sort() : others });
                                    }}
                                  />
                                ))}
                              </Stack>
                            </Table.Td>
                          )}
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Paper>
            );
          })}
        </SimpleGrid>
      )}
    </Input.Wrapper>
  );
}
