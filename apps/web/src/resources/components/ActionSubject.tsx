import type { ActionSpec } from '@pitboss/contract';
import { ActionIcon, Anchor, Code, CopyButton, Group, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import type { ResourceRecord } from '../api';

/** Characters of a long code shown at each end (a 88-character signature reads `5xKq…9fTz`). */
const ENDS = 10;

/**
 * The record an action's dialog acts on (`ActionSpec.subject`): its long code by its ends, whole on
 * hover and copied whole with the button, and its link out (the explorer).
 */
export function ActionSubject({ subject, record }: { subject: NonNullable<ActionSpec['subject']>; record: ResourceRecord }) {
  const code = subject.code ? record[subject.code] : null;
  const link = subject.link ? record[subject.link.key] : null;
  const text = typeof code === 'string' ? code : '';
  const href = typeof link === 'string' && /^https?:\/\//.test(link) ? link : null;
  if (!text && !href) return null;
  return (
    <Group gap="xs" wrap="nowrap" data-testid="action-subject">
      {text && (
        <>
          <Code title={text} aria-label={text} style={{ whiteSpace: 'nowrap' }}>
            {text.length > ENDS * 2 + 1 ? `${text.slice(0, ENDS)}…${text.slice(-ENDS)}` : text}
          </Code>
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={copied ? 'Copied' : 'Copy whole'}>
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </>
      )}
      {href && subject.link && (
        <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
          <Group gap={4} wrap="nowrap" component="span">
            {subject.link.label}
            <IconExternalLink size={14} />
          </Group>
        </Anchor>
      )}
    </Group>
  );
}
