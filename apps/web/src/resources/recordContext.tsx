import { Skeleton } from '@mantine/core';
import { Suspense, type ReactNode } from 'react';
import { recordContextOf } from './extensions';

/** The record's decision context (registered by its module), or null for a resource without one. */
export function recordContext(resource: string, id: string): ReactNode {
  const render = recordContextOf(resource);
  return render ? <Suspense fallback={<Skeleton h={120} radius="sm" />}>{render(id)}</Suspense> : null;
}
