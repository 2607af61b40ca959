import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Blocker } from 'react-router';

interface Props {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The other button's label (default "Cancel"). */
  cancelLabel?: string;
  /** Red for destructive actions. */
  color?: string;
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A yes/no question before an action that cannot be taken back. */
export function ConfirmModal({ opened, title, children, confirmLabel, cancelLabel = 'Cancel', color = 'red', loading, onConfirm, onCancel }: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title={<Text fw={600}>{title}</Text>} centered>
      <Text size="sm">{children}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={loading}>
          {cancelLabel}
        </Button>
        <Button color={color} onClick={onConfirm} loading={loading} data-autofocus>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}

/**
 * The question a held navigation asks (`useUnsavedChanges`' blocker): leave and lose what was typed,
 * or stay. One for every form and the ticket reply box.
 */
export function LeavePrompt({ blocker, title, cancelLabel, children }: { blocker: Blocker; title: string; cancelLabel?: string; children: ReactNode }) {
  return (
    <ConfirmModal opened={blocker.state === 'blocked'} title={title} confirmLabel="Leave" {...(cancelLabel ? { cancelLabel } : {})}
      onCancel={() => blocker.reset?.()} onConfirm={() => blocker.proceed?.()}>
      {children}
    </ConfirmModal>
  );
}
