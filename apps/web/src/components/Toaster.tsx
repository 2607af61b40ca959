import { TOAST_LIMIT } from '@pitboss/contract';
import { lazy, Suspense } from 'react';
import { toasterStore } from '../lib/toast';

const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

/** The toast container, loaded with the first toast: top-center, at most 20 at once (seed §8, §9). */
export function Toaster() {
  const wanted = toasterStore.use((s) => s.wanted);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-center" limit={TOAST_LIMIT} zIndex={1000} />
    </Suspense>
  );
}
