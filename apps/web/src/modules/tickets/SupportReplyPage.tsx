import { Alert, Anchor, Badge, Button, Card, FileButton, Grid, Group, Loader, Paper, Select, Stack, Switch, Table, Text, Title, Typography } from '@mantine/core';
import { DateTime } from '../../components/DateTime';
import { accessFor, ticketStates, type TicketAttachmentRecord, type TicketConversation, type TicketMessageRecord } from '@pitboss/contract';
import { IconLock, IconPaperclip } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { callApi, downloadEndpoint, fetchApi } from '../../lib/api';
import { uploadFiles } from '../../lib/upload';
import { toast } from '../../lib/toast';
import { postAction, resourcePath } from '../../resources/api';
import { useAdmin } from '../../stores/auth';
import { useUnsavedChanges } from '../../lib/useUnsavedChanges';
import { LeavePrompt } from '../../resources/components/ConfirmModal';

const RichTextField = lazy(() => import('../../resources/components/RichTextField'));
const stateOf = (v: string) => ticketStates.states.find((s) => s.value === v);
const size = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(0)} kB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

function Attachments({ ticketId, files }: { ticketId: string; files: TicketAttachmentRecord[] }) {
  if (!files.length) return null;
  return (
    <Group gap="xs" mt={6}>
      {files.map((f) => (
        <Button key={f._id} size="compact-xs" variant="default" leftSection={<IconPaperclip size={12} />} data-testid="attachment"
          onClick={() => void downloadEndpoint('GET /api/admin/support-reply/:id/attachments/:attachmentId', { id: ticketId, attachmentId: f._id }, { filename: f.filename })}>
          {f.filename} · {size(f.size)}
        </Button>
      ))}
    </Group>
  );
}

function Message({ ticketId, m }: { ticketId: string; m: TicketMessageRecord }) {
  const fromUser = m.author === 'user';
  const bg = m.internal ? 'var(--mantine-color-yellow-light)' : fromUser ? 'var(--mantine-color-default)' : 'var(--mantine-color-blue-light)';
  return (
    <Paper withBorder p="sm" ml={fromUser ? 0 : 'xl'} mr={fromUser ? 'xl' : 0} style={{ background: bg, borderStyle: m.internal ? 'dashed' : 'solid' }}
      data-testid={m.internal ? 'internal-note' : fromUser ? 'user-message' : 'admin-reply'}>
      <Group justify="space-between" mb={4}>
        <Group gap={6}>
          <Text fw={600} size="sm">{m.authorName}</Text>
          {m.internal ? <Badge size="xs" color="yellow" leftSection={<IconLock size={10} />}>Internal note · admins only</Badge> : null}
          {fromUser ? <Badge size="xs" variant="outline">User</Badge> : m.internal ? null : <Badge size="xs" variant="light">Reply</Badge>}
        </Group>
        <Text size="xs" c="dimmed"><DateTime value={m.createdAt} size="xs" /></Text>
      </Group>
      {/* The body was sanitised on the server (sanitize-html allowlist) before it was stored. */}
      <Typography fz="sm">
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: server-sanitised rich text */}
        <div dangerouslySetInnerHTML={{ __html: m.body }} />
      </Typography>
      <Attachments ticketId={ticketId} files={m.attachments} />
    </Paper>
  );
}

/**
 * `/support-reply/{id}`: a ticket's conversation, the reply box (or an internal note), the user's other tickets and balances.
 * One conversation per ticket (keyed by its id): going to the user's other ticket starts with an empty box.
 */
export default function SupportReplyPage() {
  const { id = '' } = useParams();
  return <Conversation key={id} id={id} />;
}

function Conversation({ id }: { id: string }) {
  const admin = useAdmin();
  const canWrite = admin ? accessFor(admin, 'Support Reply').canEdit : false;
  const canManage = admin ? accessFor(admin, 'Support Ticket').canEdit : false;
  const [data, setData] = useState<TicketConversation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [body, setBody] = useState('');
  const [internal, setInternal] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setData(await fetchApi('GET /api/admin/support-reply/:id', { params: { id } }));
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  }, [id]);
  useEffect(() => void load(), [load]);
  // An unsent reply or note is not dropped without asking (another page, the user's other ticket, a reload).
  const { blocker } = useUnsavedChanges(body !== '');
  const leavePrompt = (
    <LeavePrompt blocker={blocker} title="Leave without sending?" cancelLabel="Stay">
      Your {internal ? 'internal note' : 'reply'} on this ticket has not been sent.
    </LeavePrompt>
  );

  if (error) return <Alert color="red" title="Ticket">{error}</Alert>;
  if (!data) return <Loader />;
  const t = data.ticket;
  const st = stateOf(t.status);

  const act = async (name: 'close' | 'reopen' | 'assign', input: Record<string, unknown> = {}) => {
    // The tickets resource's declared actions (Support Ticket edit), as the list's buttons call them.
    const res = await postAction(resourcePath('tickets', `/${id}/${name}`), input);
    if (res.success) toast.success(res.message);
    else toast.error(res.message);
    void load();
  };
  const send = async () => {
    setBusy(true);
    const res = await callApi('POST /api/admin/support-reply/:id/messages', { params: { id }, body: { body, internal, attachmentIds: data.pendingAttachments.map((a) => a._id) } });
    setBusy(false);
    if (!res.success) return toast.error(res.message);
    toast.success(res.message);
    setBody('');
    setInternal(false);
    void load();
  };
  const upload = async (files: File[]) => {
    if (!files.length) return;
    const res = await uploadFiles('POST /api/admin/support-reply/:id/attachments', { id }, files);
    if (!res.success) toast.error(res.message);
    else toast.success(res.message);
    void load();
  };

  return (
    <>
      {leavePrompt}
      <PageHeader
        title={t.subject}
        description={<>Ticket #{t._id} from <Anchor component={Link} to={`/user-history/${t.userId}`}>{t.username}</Anchor>{t.categoryName ? ` · ${t.categoryName}` : ''} · priority {t.priority} · opened <DateTime value={t.createdAt} /></>}
        actions={
          <>
            <Badge size="lg" color={st?.color} data-testid="ticket-status" data-status={t.status}>{st?.label}</Badge>
            {canManage && t.status !== 'closed' ? <Button variant="default" onClick={() => void act('close')} data-testid="close-ticket">Close</Button> : null}
            {canManage && t.status === 'closed' ? <Button variant="default" onClick={() => void act('reopen')}>Reopen</Button> : null}
          </>
        }
      />
      <Grid>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="sm">
            {data.messages.map((m) => <Message key={m._id} ticketId={t._id} m={m} />)}
            {canWrite ? (
              <Card withBorder>
                <Suspense fallback={<Loader size="sm" />}>
                  <RichTextField name="body" label={internal ? 'Internal note (admins only, never sent)' : 'Reply to the user (sent by mail)'} disabled={busy} value={body} onChange={setBody} />
                </Suspense>
                {data.pendingAttachments.length ? (
                  <Group gap="xs" mt="xs"><Text size="xs" c="dimmed">To send:</Text><Attachments ticketId={t._id} files={data.pendingAttachments} /></Group>
                ) : null}
                <Group justify="space-between" mt="sm">
                  <Group>
                    <FileButton onChange={(f) => void upload(f)} accept="image/png,image/jpeg,image/webp,image/gif,application/pdf" multiple>
                      {(props) => <Button {...props} variant="default" leftSection={<IconPaperclip size={14} />} data-testid="attach">Attach files</Button>}
                    </FileButton>
                    <Switch label="Internal note" checked={internal} onChange={(e) => setInternal(e.currentTarget.checked)} data-testid="internal-switch" />
                  </Group>
                  <Button onClick={() => void send()} loading={busy} disabled={!body && !data.pendingAttachments.length} color={internal ? 'yellow' : undefined} data-testid="send-reply">
                    {internal ? 'Add note' : 'Send reply'}
                  </Button>
                </Group>
                <Text size="xs" c="dimmed" mt={4}>PNG, JPEG, WebP, GIF or PDF, up to 5 MB each, 5 per message.</Text>
              </Card>
            ) : null}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="sm">
            <Card withBorder>
              <Title order={5} mb="xs">Assignee</Title>
              <Select
                data-testid="assignee" disabled={!canManage} clearable placeholder="Unassigned"
                data={data.assignees.map((a) => ({ value: a._id, label: `${a.name} (${a.email})` }))}
                value={t.assigneeId}
                onChange={(v) => void act('assign', { adminId: v })}
              />
              {canManage && admin && data.assignees.some((a) => a.email === admin.email) && t.assigneeName !== admin.name ? (
                <Button mt="xs" size="xs" variant="light" data-testid="assign-me" onClick={() => void act('assign', { adminId: data.assignees.find((a) => a.email === admin.email)!._id })}>Assign to me</Button>
              ) : null}
              <Text size="xs" c="dimmed" mt="xs">Last activity <DateTime value={t.lastActivityAt} size="xs" />{t.waitingSince ? <> · waiting since <DateTime value={t.waitingSince} size="xs" absolute /></> : null}</Text>
            </Card>
            <Card withBorder>
              <Title order={5} mb="xs">{data.user.username}</Title>
              <Text size="sm" c="dimmed">{data.user.email} · {data.user.status}</Text>
              <Table mt="xs" fz="sm">
                <Table.Thead><Table.Tr><Table.Th>Coin</Table.Th><Table.Th>Available</Table.Th><Table.Th>Held</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {data.balances.length === 0 ? <Table.Tr><Table.Td colSpan={3}><Text size="sm" c="dimmed">No balance</Text></Table.Td></Table.Tr> : null}
                  {data.balances.map((b) => <Table.Tr key={b.coin}><Table.Td>{b.coin}</Table.Td><Table.Td>{b.available}</Table.Td><Table.Td>{b.held}</Table.Td></Table.Tr>)}
                </Table.Tbody>
              </Table>
            </Card>
            <Card withBorder>
              <Title order={5} mb="xs">Other tickets</Title>
              {data.otherTickets.length === 0 ? <Text size="sm" c="dimmed">None</Text> : null}
              <Stack gap={4}>
                {data.otherTickets.map((o) => (
                  <Group key={o._id} justify="space-between" wrap="nowrap">
                    <Anchor component={Link} to={`/support-reply/${o._id}`} size="sm" lineClamp={1}>{o.subject}</Anchor>
                    <Badge size="xs" color={stateOf(o.status)?.color}>{stateOf(o.status)?.label}</Badge>
                  </Group>
                ))}
              </Stack>
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}
