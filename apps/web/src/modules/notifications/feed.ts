import type { NotificationRecord } from '@pitboss/contract';

/**
 * What the bell's live stream hears, passed on to whatever else shows notifications in this tab
 * (the notifications page): one stream per tab, not one per view. The bell is there whenever the
 * page can be (both need the view right on Notifications).
 */
export type FeedEvent = { kind: 'notification'; item: NotificationRecord; unread: number } | { kind: 'count'; unread: number };

const listeners = new Set<(e: FeedEvent) => void>();

export function publishFeed(e: FeedEvent): void {
  for (const l of listeners) l(e);
}

/** Listens until the returned function is called. */
export function subscribeFeed(listener: (e: FeedEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
