import type { MarketDepth, MarketOverviewEventName, OverviewMarket } from '@pitboss/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { listen, type Listener } from '../../db/notify.js';
import { MARKET_CHANGES_CHANNEL, marketDepth, overviewRows } from './service.js';

/** One open stream: the market whose depth it shows (or none), and how to send it an event. */
export interface Subscriber {
  market: number | null;
  send(event: MarketOverviewEventName, data: unknown): void;
}

/**
 * This instance's side of the live overview. It LISTENs on the market-change channel (every
 * committed book command and state move of any instance NOTIFYs it with the market's id), gathers
 * the ids that changed, and at most once per `intervalMs` reads those markets' rows (and the depth
 * of those some stream has selected) ONCE, for all its streams: a busy book costs a few queries a
 * second, whatever the number of orders or of watchers. The LISTEN connection is opened with the
 * first stream and closed with the last one.
 */
export class MarketOverviewHub {
  private readonly subscribers = new Set<Subscriber>();
  /** Streams whose snapshot is not sent yet: their updates wait behind it, in order (none is lost, none overtakes it). */
  private readonly waiting = new Map<Subscriber, [MarketOverviewEventName, unknown][]>();
  private listener: Listener | null = null;
  private readonly dirty = new Set<number>();
  private resync = false;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private lastFlush = 0;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** Least time between two updates: at most 1000 / intervalMs updates a second per market (and in all). */
    private readonly intervalMs = 250,
  ) {}

  get size(): number {
    return this.subscribers.size;
  }

  /**
   * Adds a stream once the change feed is in place, then sends it its snapshot: every change
   * committed after the snapshot's reads is announced to it, none is missed. Returns the unsubscribe.
   */
  async subscribe(sub: Subscriber): Promise<() => void> {
    if (this.closed) throw new Error('The market overview is shutting down');
    this.subscribers.add(sub);
    this.waiting.set(sub, []);
    const unsubscribe = () => {
      this.subscribers.delete(sub);
      this.waiting.delete(sub);
      if (this.subscribers.size === 0) void this.stopListening();
    };
    try {
      if (!this.listener) {
        this.listener = listen(this.db, MARKET_CHANGES_CHANNEL, {
          onNotify: (payload) => this.changed(payload),
          onResync: () => {
            this.resync = true;
            this.schedule();
          },
          onError: (err) => this.log.warn({ err: err.message }, 'market overview: the change feed was lost; reconnecting'),
        });
      }
      await this.listener.ready;
      await this.sendSnapshot(sub);
      const queued = this.waiting.get(sub) ?? [];
      this.waiting.delete(sub);
      for (const [event, data] of queued) this.deliver(sub, event, data);
    } catch (err) {
      unsubscribe();
      throw err;
    }
    return unsubscribe;
  }

  /** Refuses new streams from now on (the server is stopping), forgets the open ones (their routes end them) and closes the change feed. */
  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
    this.waiting.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flushing;
    await this.stopListening();
  }

  private async stopListening(): Promise<void> {
    if (this.subscribers.size > 0 || !this.listener) return;
    const l = this.listener;
    this.listener = null;
    this.dirty.clear();
    await l.close();
  }

  private changed(payload: string): void {
    const id = Number(payload);
    if (!Number.isSafeInteger(id) || id <= 0) return;
    this.dirty.add(id);
    this.schedule();
  }

  /** Coalesces: one flush at a time, at least `intervalMs` after the previous one. */
  private schedule(): void {
    if (this.timer || this.flushing || this.closed) return;
    const wait = Math.max(0, this.lastFlush + this.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushing = this.flush()
        .catch((err: unknown) => this.log.warn({ err: (err as Error).message }, 'market overview: an update failed'))
        .finally(() => {
          this.flushing = null;
          this.lastFlush = Date.now();
          if (this.dirty.size || this.resync) this.schedule();
        });
    }, wait);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    if (this.subscribers.size === 0) {
      this.dirty.clear();
      this.resync = false;
      return;
    }
    if (this.resync) {
      // Notifications may have been lost while the feed was down: everyone starts over.
      this.resync = false;
      this.dirty.clear();
      for (const sub of [...this.subscribers]) if (!this.waiting.has(sub)) await this.sendSnapshot(sub).catch(() => undefined);
      return;
    }
    const ids = [...this.dirty];
    this.dirty.clear();
    const rows = await overviewRows(this.db, ids);
    const present = new Set(rows.map((r) => r._id));
    const removed = ids.map(String).filter((id) => !present.has(id));
    const at = new Date().toISOString();
    const depths = new Map<number, MarketDepth>();
    const watched = new Set([...this.subscribers].map((s) => s.market));
    for (const id of ids) {
      if (!watched.has(id)) continue;
      const depth = await marketDepth(this.db, id).catch(() => null);
      if (depth) depths.set(id, depth);
    }
    for (const sub of [...this.subscribers]) {
      this.deliver(sub, 'markets', { items: rows, removed, at });
      const depth = sub.market === null ? undefined : depths.get(sub.market);
      if (depth) this.deliver(sub, 'depth', depth);
    }
  }

  private async sendSnapshot(sub: Subscriber): Promise<void> {
    const markets: OverviewMarket[] = await overviewRows(this.db);
    const depth = sub.market === null ? null : await marketDepth(this.db, sub.market);
    this.deliver(sub, 'snapshot', { markets: { markets, at: new Date().toISOString() }, depth });
  }

  private deliver(sub: Subscriber, event: MarketOverviewEventName, data: unknown): void {
    if (!this.subscribers.has(sub)) return;
    const queue = event === 'snapshot' ? undefined : this.waiting.get(sub);
    if (queue) {
      queue.push([event, data]);
      return;
    }
    try {
      sub.send(event, data);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'market overview: a stream failed');
    }
  }
}
