import { accessFor, actionTitle, approvalsResource, availableActions, ERROR_CODES, type ActionOutput, type ActionSpec, type ResourceSpec } from '@pitboss/contract';
import { ActionSubject } from './ActionSubject';
import { recordContext } from '../recordContext';
import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../lib/toast';
import { useAdmin } from '../../stores/auth';
import { postAction, resourceKeys, resourcePath, type ResourceRecord } from '../api';
import { ActionDialog, type SubmitAnswer } from './ActionDialog';
import { ActionOutputModal } from './ActionOutputModal';

interface Props {
  spec: ResourceSpec;
  record: ResourceRecord;
  size?: 'xs' | 'sm';
  /** On a list's row: only the actions the declaration lists there (`ActionSpec.listed`). */
  inList?: boolean;
  /** After an action succeeded (the record's queries are refreshed already). */
  onDone?: (record: ResourceRecord | undefined) => void;
}

/**
 * The declared actions of one record, as buttons: only those its state allows and the admin's
 * rights permit (the server checks both again). Each opens its form or confirmation.
 */
export function RecordActions({ spec, record, size = 'sm', inList = false, onDone }: Props) {
  // The resource's own access, not the page's: on a user's page the withdrawals tab needs Withdraw rights.
  const admin = useAdmin();
  const access = admin && spec.restriction ? accessFor(admin, spec.restriction) : { canView: false, canEdit: false };
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<ActionSpec | null>(null);
  // What an action with a declared output answered (codes, a verification), shown once.
  const [shown, setShown] = useState<{ action: ActionSpec; output: ActionOutput } | null>(null);
  const actions = availableActions(spec, record, access, { inList });
  if (actions.length === 0) return null;

  const submit = async (input: Record<string, unknown>): Promise<SubmitAnswer> => {
    if (!open) return undefined;
    const res = await postAction(resourcePath(spec.name, `/${encodeURIComponent(record._id)}/${open.name}`), input);
    if (!res.success) {
      // The server asks to confirm first (acting before a market's close time): the dialog says why and asks.
      if (res.code === ERROR_CODES.CONFIRM_REQUIRED) return { confirmRequired: res.message };
      toast.error(res.message);
      // A state that changed meanwhile: show the record as it is now.
      if (res.code === 'INVALID_STATE') await queryClient.invalidateQueries({ queryKey: resourceKeys.all(spec.name) });
      return { errors: res.errors ?? {} };
    }
    const output = open.output ? ((res.result as { actionOutput?: ActionOutput } | undefined)?.actionOutput ?? null) : null;
    if (output) setShown({ action: open, output });
    else toast.success(res.message);
    setOpen(null);
    await queryClient.invalidateQueries({ queryKey: resourceKeys.all(spec.name) });
    // An approval given or a decision taken changes what waits for a second admin (the sidebar's count).
    void queryClient.invalidateQueries({ queryKey: resourceKeys.all(approvalsResource.name) });
    onDone?.(res.result as ResourceRecord | undefined);
    return undefined;
  };


  return (
    <>
      <Group gap="xs" wrap="wrap">
        {actions.map((a) => (
          <Button key={a.name} size={size} variant={a.danger ? 'light' : 'default'} color={a.danger ? 'red' : undefined} onClick={() => setOpen(a)} data-action={a.name}>
            {a.label}
          </Button>
        ))}
      </Group>
      <ActionDialog
        resource={spec.name}
        record={record}
        action={open}
        title={open ? actionTitle(open, record, spec.titleField) : ''}
        subject={
          open?.subject ? (
            <>
              <ActionSubject subject={open.subject} record={record} />
              {recordContext(spec.name, record._id)}
            </>
          ) : undefined
        }
        onClose={() => setOpen(null)}
        submit={submit}
      />
      <ActionOutputModal action={shown?.action ?? null} output={shown?.output ?? null} onClose={() => setShown(null)} />
    </>
  );
}
