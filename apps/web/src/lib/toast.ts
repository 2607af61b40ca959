import { TOAST_ERROR_MS, TOAST_SUCCESS_MS } from '@pitboss/contract';
import { createStore } from './createStore';

/** First letter upper-case (seed §8: toasts show messages with the first letter capitalised). */
export function capitalise(message: string): string {
  const text = message.trim();
  return text.length === 0 ? text : text.charAt(0).toUpperCase() + text.slice(1);
}

export type ToastType = 'success' | 'error';

export interface ToastOptions {
  message: string;
  color: string;
  autoClose: number;
  withBorder: boolean;
  'data-toast-type': ToastType;
}

/** What `notifications.show` receives for a toast of this type. */
export function toastOptions(type: ToastType, message: string): ToastOptions {
  return {
    message: capitalise(message),
    color: type === 'success' ? 'teal' : 'red',
    autoClose: type === 'success' ? TOAST_SUCCESS_MS : TOAST_ERROR_MS,
    withBorder: true,
    // Lets tests and assistive tech tell the two kinds apart.
    'data-toast-type': type,
  };
}

/** Whether the toast container should be mounted: it (and its library) loads with the first toast. */
export const toasterStore = createStore({ wanted: false });

let library: Promise<typeof import('@mantine/notifications')> | null = null;

function show(type: ToastType, message: string): void {
  if (!toasterStore.get().wanted) toasterStore.set({ wanted: true });
  library ??= import('@mantine/notifications');
  void library.then(({ notifications }) => notifications.show(toastOptions(type, message) as unknown as Parameters<typeof notifications.show>[0]));
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
};
