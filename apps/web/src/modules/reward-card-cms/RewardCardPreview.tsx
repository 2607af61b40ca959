import { rewardCardCmsResource, } from '@pitboss/contract';
import { Badge, Box, Container, Group, Image, Paper, Stack, Text, Title, Typography } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QueryStatus } from '../../components/QueryStatus';
import { imageSrc } from '../../lib/upload';
import { fetchList, fetchRecord } from '../../resources/api';

/**
 * The public reward-card page as the platform shows it: the active blocks in order (title, image,
 * text), from what is saved. The block of this record page is outlined; an inactive one is shown
 * where it would go, marked hidden. The text was sanitised by the server when saved: what renders
 * here is exactly the allowlist's HTML.
 */
export function RewardCardPreview({ id }: { id: string }) {
  const page = useQuery({
    queryKey: ['reward-card-cms', 'preview'],
    staleTime: 0,
    queryFn: ({ signal }) => fetchList(rewardCardCmsResource, { status: 'active', sort: 'sortOrder', limit: 200 }, signal),
  });
  const current = useQuery({
    queryKey: ['reward-card-cms', 'preview', id],
    staleTime: 0,
    queryFn: ({ signal }) => fetchRecord(rewardCardCmsResource, id, signal),
  });
  const blocks = [...(page.data?.items ?? [])];
  if (current.data && !blocks.some((b) => b._id === id)) blocks.push(current.data);
  blocks.sort((a, b) => a.sortOrder - b.sortOrder || Number(a._id) - Number(b._id));
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        The public reward-card page with the saved blocks (save to see a change here). Only active blocks are shown to users.
      </Text>
      <QueryStatus query={page} loadingLabel="Loading the preview">
      <Paper withBorder p="lg" radius="md" bg="var(--mantine-color-body)" data-testid="reward-card-preview">
        <Container size="sm" px={0}>
          <Stack gap="xl">
            {blocks.length === 0 && !page.isLoading && <Text c="dimmed">No active blocks: the page is empty.</Text>}
            {blocks.map((b) => (
              <Box
                key={b._id}
                component="section"
                p="sm"
                data-block-id={b._id}
                style={b._id === id ? { outline: '2px dashed var(--mantine-color-blue-5)', outlineOffset: 4, borderRadius: 8 } : undefined}
              >
                <Group gap="xs" mb="xs">
                  <Title order={3}>{b.title}</Title>
                  {b.status !== 'active' && (
                    <Badge color="gray" variant="light">
                      Hidden
                    </Badge>
                  )}
                </Group>
                {b.imageUrl && <Image src={imageSrc(b.imageUrl)} alt="" radius="md" mah={320} fit="contain" mb="sm" />}
                {b.body && (
                  <Typography>
                    {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server's allowlist when saved (sanitize-html) */}
                    <div dangerouslySetInnerHTML={{ __html: b.body }} />
                  </Typography>
                )}
              </Box>
            ))}
          </Stack>
        </Container>
      </Paper>
      </QueryStatus>
    </Stack>
  );
}
