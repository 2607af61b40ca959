import { notificationEndpoints as ep, type NotificationEventName } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { listen, type Listener } from '../../db/notify.js';
import { ok } from '../../http/envelope.js';
import { EventStreams, openEventStream } from '../../http/event-stream.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { AdminRow } from '../auth/sessions.js';
import { canSee, listNotifications, markAllRead, markRead, NOTIFICATION_READS_CHANNEL, NOTIFICATIONS_CHANNEL, notificationRecord, unreadCount } from './service.js';
import { notifications } from './table.js';

interface Subscriber {
  /** The admin as of the last check (their rights decide what reaches them). */
  admin: AdminRow;
  send(event: NotificationEventName, data: unknown): void;
}

/**
 * This instance's side of the live bell: it LISTENs (on one connection, while at least one stream
 * is open) for new notifications and read-state changes committed by any instance, and tells each
 * open stream what its admin may see: the new notification and their unread count.
 */
class NotificationHub {
  private readonly subs = new Set<Subscriber>();
  private listeners: Listener[] = [];

  constructor(private readonly db: Db, private readonly log: FastifyBaseLogger) {}

  async subscribe(sub: Subscriber): Promise<() => void> {
    this.subs.add(sub);
    if (this.listeners.length === 0) {
      const onError = (err: Error) => this.log.warn({ err: err.message }, 'notifications: the change feed was lost; reconnecting');
      const resync = () => void this.recount([...this.subs]);
      this.listeners = [
        listen(this.db, NOTIFICATIONS_CHANNEL, { onNotify: (p) => void this.created(Number(p)), onResync: resync, onError }),
        listen(this.db, NOTIFICATION_READS_CHANNEL, { onNotify: (p) => void this.recount([...this.subs].filter((s) => s.admin.id === Number(p))), onResync: resync, onError }),
      ];
    }
    await Promise.all(this.listeners.map((l) => l.ready));
    sub.send('count', { unread: await unreadCount(this.db, sub.admin) });
    return () => {
      this.subs.delete(sub);
      if (this.subs.size === 0) void this.stop();
    };
  }

  private async created(id: number) {
    try {
      const [n] = await this.db.select().from(notifications).where(eq(notifications.id, id));
      if (!n) return;
      for (const sub of [...this.subs].filter((s) => canSee(s.admin, n))) {
        sub.send('notification', { item: notificationRecord(n, false), unread: await unreadCount(this.db, sub.admin) });
      }
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'notifications: could not announce a notification');
    }
  }

  async recount(subs: Subscriber[]) {
    for (const sub of subs) {
      try {
        sub.send('count', { unread: await unreadCount(this.db, sub.admin) });
      } catch (err) {
        this.log.warn({ err: (err as Error).message }, 'notifications: could not count');
      }
    }
  }

  async stop() {
    const ls = this.listeners;
    this.listeners = [];
    await Promise.all(ls.map((l) => l.close()));
  }
}

export function notificationRoutes(app: App, ctx: AppContext): void {
  const hub = new NotificationHub(ctx.db, ctx.log);
  const streams = new EventStreams();
  app.addHook('preClose', async () => {
    streams.endAll('The server is stopping', 503);
    await hub.stop();
  });

  route(app, ep.notificationList, async (req) => ok(await listNotifications(ctx.db, req.admin!, req.query)));

  route(app, ep.notificationMarkRead, async (req) => {
    await ctx.db.transaction((tx) => markRead(tx, req.admin!, Number(req.params.id)));
    return ok({ unread: await unreadCount(ctx.db, req.admin!) }, 'Marked read');
  });

  route(app, ep.notificationMarkAllRead, async (req) => {
    await ctx.db.transaction((tx) => markAllRead(tx, req.admin!));
    return ok({ unread: await unreadCount(ctx.db, req.admin!) }, 'All notifications marked read');
  });

  route(app, ep.notificationStream, async (req, reply) => {
    let sub: Subscriber | undefined;
    return openEventStream<NotificationEventName>(req, reply, ctx, {
      access: ep.notificationStream.access,
      streams,
      name: 'notifications',
      unavailable: 'Notifications are not available right now: retry in a moment',
      onOpen: (stream) => {
        sub = { admin: req.admin!, send: stream.send };
        return hub.subscribe(sub);
      },
      // Rights changed: the unread count is of what the admin may see now.
      onCheck: async (admin) => {
        if (!sub) return;
        const changed = JSON.stringify(admin.restriction) !== JSON.stringify(sub.admin.restriction);
        sub.admin = admin;
        if (changed) await hub.recount([sub]);
      },
    });
  });
}
