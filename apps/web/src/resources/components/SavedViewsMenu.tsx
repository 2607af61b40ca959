import { isSuperAdmin, type SavedView } from '@pitboss/contract';
import { ActionIcon, Badge, Button, Checkbox, Group, Menu, Modal, ScrollArea, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconBookmark, IconBookmarkPlus, IconCheck, IconDeviceFloppy, IconPencil, IconSettings, IconStar, IconStarFilled, IconTrash, IconUsers } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useAdmin } from '../../stores/auth';
import type { SavedViewsController } from '../hooks/useSavedViews';
import { ConfirmModal } from './ConfirmModal';

function SaveViewModal({ views, opened, onClose }: { views: SavedViewsController; opened: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [isDefault, setIsDefault] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const res = await views.save({ name, shared, isDefault });
    setBusy(false);
    if (res.success) {
      setName('');
      setShared(false);
      setIsDefault(false);
      setError(null);
      onClose();
    } else setError(res.errors?.name ?? res.message);
  }

  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={600}>Save current view</Text>} centered>
      <form onSubmit={(e) => void submit(e)}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Keeps this list's filters, sort, search and visible columns under a name.
          </Text>
          <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} maxLength={80} />
          <Checkbox label="Share with every admin who may view this list" checked={shared} onChange={(e) => setShared(e.currentTarget.checked)} />
          <Checkbox label="Open it by default when I come to this list" checked={isDefault} onChange={(e) => setIsDefault(e.currentTarget.checked)} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save view
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ViewRow({ view, views, mayDelete, onDelete }: { view: SavedView; views: SavedViewsController; mayDelete: boolean; onDelete: () => void }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(view.name);
  const [error, setError] = useState<string | null>(null);

  async function rename(e: FormEvent) {
    e.preventDefault();
    const res = await views.update(view, { name });
    if (res.success) {
      setEditing(false);
      setError(null);
    } else setError(res.errors?.name ?? res.message);
  }

  return (
    <Table.Tr data-testid="saved-view-row" data-name={view.name}>
      <Table.Td>
        {editing ? (
          <form onSubmit={(e) => void rename(e)}>
            <Group gap={4} wrap="nowrap">
              <TextInput size="xs" aria-label={`New name of ${view.name}`} value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} maxLength={80} data-autofocus />
              <ActionIcon type="submit" variant="light" aria-label="Save the name">
                <IconCheck size={14} />
              </ActionIcon>
            </Group>
          </form>
        ) : (
          <Stack gap={0}>
            <Text size="sm" fw={500}>
              {view.name}
            </Text>
            {!view.mine && (
              <Text size="xs" c="dimmed">
                by {view.owner.name}
              </Text>
            )}
          </Stack>
        )}
      </Table.Td>
      <Table.Td>
        {view.shared ? (
          <Badge size="sm" variant="light" color="blue" leftSection={<IconUsers size={10} />}>
            Shared
          </Badge>
        ) : (
          <Badge size="sm" variant="light" color="gray">
            Private
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label={view.isDefault ? 'My default: click to clear' : 'Open by default'}>
            <ActionIcon variant="subtle" color="yellow" aria-label={view.isDefault ? `Clear ${view.name} as my default` : `Set ${view.name} as my default`} aria-pressed={view.isDefault} onClick={() => void views.setDefault(view.isDefault ? null : view)}>
              {view.isDefault ? <IconStarFilled size={16} /> : <IconStar size={16} />}
            </ActionIcon>
          </Tooltip>
          {view.mine && (
            <>
              <Tooltip label={view.shared ? 'Make private' : 'Share with admins who may view this list'}>
                <ActionIcon variant="subtle" aria-label={view.shared ? `Make ${view.name} private` : `Share ${view.name}`} aria-pressed={view.shared} onClick={() => void views.update(view, { shared: !view.shared })}>
                  <IconUsers size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Save the current filters, sort, search and columns into it">
                <ActionIcon variant="subtle" aria-label={`Update ${view.name} to the current list`} onClick={() => void views.update(view, { state: 'current' })}>
                  <IconDeviceFloppy size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Rename">
                <ActionIcon variant="subtle" aria-label={`Rename ${view.name}`} onClick={() => setEditing((x) => !x)}>
                  <IconPencil size={16} />
                </ActionIcon>
              </Tooltip>
            </>
          )}
          {mayDelete && (
            <Tooltip label="Delete">
              <ActionIcon variant="subtle" color="red" aria-label={`Delete ${view.name}`} onClick={onDelete}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function ManageViewsModal({ views, opened, onClose }: { views: SavedViewsController; opened: boolean; onClose: () => void }) {
  const admin = useAdmin();
  const superAdmin = admin ? isSuperAdmin(admin) : false;
  const [deleting, setDeleting] = useState<SavedView | null>(null);
  const [busy, setBusy] = useState(false);

  return (
    <>
      <Modal opened={opened && !deleting} onClose={onClose} title={<Text fw={600}>Saved views</Text>} size="lg" centered>
        {views.views.length === 0 ? (
          <Text size="sm" c="dimmed">
            No saved views of this list yet.
          </Text>
        ) : (
          <ScrollArea.Autosize mah="60vh">
            <Table verticalSpacing="xs" aria-label="Saved views of this list">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Seen by</Table.Th>
                  <Table.Th ta="right">Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {views.views.map((v) => (
                  <ViewRow key={v._id} view={v} views={views} mayDelete={v.mine || (v.shared && superAdmin)} onDelete={() => setDeleting(v)} />
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        title="Delete this view?"
        confirmLabel="Delete view"
        loading={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          setBusy(true);
          void views.remove(deleting).finally(() => {
            setBusy(false);
            setDeleting(null);
          });
        }}
      >
        {deleting && (deleting.mine ? `"${deleting.name}" is deleted for good${deleting.shared ? ', for every admin it is shared with' : ''}.` : `"${deleting.name}" is ${deleting.owner.name}'s view, shared with every admin who may view this list: it is deleted for all of them.`)}
      </ConfirmModal>
    </>
  );
}

/** The list's "Views" menu: save the current state, open a saved view (mine, then shared ones), manage them. */
export function SavedViewsMenu({ views }: { views: SavedViewsController }) {
  const [saving, setSaving] = useState(false);
  const [managing, setManaging] = useState(false);
  const active = views.views.find((v) => v._id === views.activeId);
  const mine = views.views.filter((v) => v.mine);
  const shared = views.views.filter((v) => !v.mine);
  const item = (v: SavedView) => (
    <Menu.Item
      key={v._id}
      onClick={() => views.open(v)}
      leftSection={v._id === views.activeId ? <IconCheck size={14} /> : <span style={{ display: 'inline-block', width: 14 }} />}
      rightSection={
        <Group gap={4} wrap="nowrap">
          {v.isDefault && (
            <Badge size="xs" variant="light" color="yellow">
              Default
            </Badge>
          )}
          {v.shared && (
            <Badge size="xs" variant="light" color="blue">
              Shared
            </Badge>
          )}
        </Group>
      }
      data-testid="saved-view-item"
    >
      {v.name}
    </Menu.Item>
  );

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="xs" variant="default" leftSection={<IconBookmark size={14} />} aria-label={active ? `Views (open: ${active.name})` : 'Views'}>
            {active ? `View: ${active.name}` : 'Views'}
          </Button>
        </Menu.Target>
        <Menu.Dropdown miw={240}>
          <Menu.Item leftSection={<IconBookmarkPlus size={14} />} onClick={() => setSaving(true)}>
            Save current view…
          </Menu.Item>
          <Menu.Item leftSection={<IconSettings size={14} />} onClick={() => setManaging(true)} disabled={views.views.length === 0}>
            Manage views…
          </Menu.Item>
          {mine.length > 0 && (
            <>
              <Menu.Divider />
              <Menu.Label>My views</Menu.Label>
              {mine.map(item)}
            </>
          )}
          {shared.length > 0 && (
            <>
              <Menu.Divider />
              <Menu.Label>Shared with me</Menu.Label>
              {shared.map(item)}
            </>
          )}
          {views.error && (
            <Text size="xs" c="red" px="sm" py={4}>
              Could not load saved views
            </Text>
          )}
        </Menu.Dropdown>
      </Menu>
      <SaveViewModal views={views} opened={saving} onClose={() => setSaving(false)} />
      <ManageViewsModal views={views} opened={managing} onClose={() => setManaging(false)} />
    </>
  );
}
