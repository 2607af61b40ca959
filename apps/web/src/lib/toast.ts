import { TOAST_ERROR_MS, TOAST_SUCCESS_MS } from '@pitboss/contract';
import { createStore } from './createStore';

/**
 * First letter upper-case (seed §8: toasts show messages with the first letter capitalised), unless
 * the message opens with a name, which shows as it is written: one of `names` (the files just sent:
 * "photo.heic: …", never "Photo.heic"), or a first word that is not a plain lower-case word (a file
 * name, an address, a ticker, a username with digits or capitals: `nora84`, `iPhone`).
 */
export function capitalise(message: string, names: readonly string[] = []): string {
  const text = message.trim();
  if (text.length === 0) return text;
  if (names.some((n) => n !== '' && text.startsWith(n))) return text;
  const first = /^\S*/.exec(text)![0].replace(/[:;,.!?)]+$/, '');
  if (!/^[a-z]+(?:['’-][a-z]+)*$/.test(first)) return text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type ToastType = 'success' | 'error';

export interface ToastOptions {
  message: string;
  color: string;
  autoClose: number;
  withBorder: boolean;
  'data-toast-type': ToastType;
}

/** What `notifications.show` receives for a toast of this type; `names` open the message as written (see `capitalise`). */
export function toastOptions(type: ToastType, message: string, names: readonly string[] = []): ToastOptions {
  return {
    message: capitalise(message, names),
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

function show(type: ToastType, message: string, names: readonly string[]): void {
  if (!toasterStore.get().wanted) toasterStore.set({ wanted: true });
  library ??= import('@mantine/notifications');
  void library.then(({ notifications }) => notifications.show(toastOptions(type, message, names) as unknown as Parameters<typeof notifications.show>[0]));
}

/** `names`: what the message may open with and must keep as written (the files of an upload). */
export const toast = {
  success: (message: string, names: readonly string[] = []) => show('success', message, names),
  error: (message: string, names: readonly string[] = []) => show('error', message, names),
};
