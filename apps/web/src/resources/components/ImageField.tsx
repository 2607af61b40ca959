import '@mantine/dropzone/styles.css';
import { IMAGE_LIMITS, thumbnailUrl, type StoredImage } from '@pitboss/contract';
import { Box, Button, Group, Image, Input, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconPhoto, IconPhotoOff, IconUpload, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { imageSrc, uploadFile } from '../../lib/upload';

export interface ImageFieldProps {
  name: string;
  label: string;
  description?: string;
  error?: string;
  required?: boolean;
  disabled: boolean;
  value: string;
  onChange: (url: string) => void;
  /** The form's upload endpoint (`POST <resource>/images`). */
  uploadPath: string;
}

const ACCEPT = { 'image/png': ['.png'], 'image/jpeg': ['.jpg', '.jpeg'], 'image/webp': ['.webp'], 'image/gif': ['.gif'] };
const MAX_MB = IMAGE_LIMITS.maxBytes / 1024 / 1024;

function rejection(rejected: FileRejection[]): string {
  const code = rejected[0]?.errors[0]?.code;
  if (code === 'file-too-large') return `The file is larger than ${MAX_MB} MB`;
  if (code === 'file-invalid-type') return 'Only PNG, JPEG, WebP or GIF images';
  if (code === 'too-many-files') return 'One image at a time';
  return rejected[0]?.errors[0]?.message ?? 'This file cannot be used';
}

/**
 * An image field: a drop zone (or click to choose) that uploads the file at once through the form's
 * upload endpoint, and a preview of the stored image. The field's value is the stored image's
 * address; the server re-encodes every upload, so what shows here is what the platform serves.
 */
export default function ImageField({ name, label, description, error, required, disabled, value, onChange, uploadPath }: ImageFieldProps) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function upload(file: File) {
    setProblem(null);
    setBusy(true);
    const res = await uploadFile<StoredImage>(uploadPath, file, file.name);
    setBusy(false);
    if (res.success && res.result) onChange(res.result.url);
    else setProblem(res.errors?.file && res.errors.file !== res.message ? `${res.message}` : res.message);
  }

  return (
    <Input.Wrapper label={label} description={description ?? `PNG, JPEG, WebP or GIF, up to ${MAX_MB} MB; stored as WebP without its metadata`} error={problem ?? error} withAsterisk={required}>
      <Group align="stretch" gap="sm" mt={4} wrap="nowrap" data-field={name}>
        <Box
          w={120}
          h={120}
          style={{ flexShrink: 0, border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden' }}
        >
          {value ? (
            <Image src={imageSrc(thumbnailUrl(value))} alt={`${label} preview`} fit="contain" w={118} h={118} data-testid={`preview-${name}`} />
          ) : (
            <IconPhotoOff size={32} color="var(--mantine-color-dimmed)" aria-label="No image" />
          )}
        </Box>
        {!disabled && (
          <Stack gap={6} style={{ flex: 1 }}>
            <Dropzone
              onDrop={(files) => {
                const file = files[0];
                if (file) void upload(file);
              }}
              onReject={(rejected) => setProblem(rejection(rejected))}
              maxSize={IMAGE_LIMITS.maxBytes}
              accept={ACCEPT}
              multiple={false}
              loading={busy}
              name={name}
              aria-label={`${label}: drop an image or click to choose one`}
              p="sm"
            >
              <Group justify="center" gap="sm" mih={72} style={{ pointerEvents: 'none' }}>
                <Dropzone.Accept>
                  <IconUpload size={28} />
                </Dropzone.Accept>
                <Dropzone.Reject>
                  <IconX size={28} />
                </Dropzone.Reject>
                <Dropzone.Idle>
                  <IconPhoto size={28} />
                </Dropzone.Idle>
                <Text size="sm">{value ? 'Drop another image to replace it, or click' : 'Drop an image here, or click to choose'}</Text>
              </Group>
            </Dropzone>
            {value && (
              <Group gap="xs">
                <Button variant="subtle" color="red" size="compact-sm" onClick={() => onChange('')}>
                  Remove image
                </Button>
              </Group>
            )}
          </Stack>
        )}
      </Group>
    </Input.Wrapper>
  );
}
