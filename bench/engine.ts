// Matching-engine benchmark: an exchange-core-like command stream through @pitboss/engine, through
// a bare reference matcher (what the hardware allows: packages/engine/test/bare.ts) and through
// nodejs-order-book, same stream, same run. The bars are ratios measured in that one run (absolute
// rates differ twofold between machines of the same type): the engine's share of the bare
// reference, and its multiple of nodejs-order-book.
import { cpus, loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { OrderBook } from 'nodejs-order-book';
import { MarketBook, Outcome, Tif, type EngineListener } from '../packages/engine/src/index.js';
import { BareBook } from '../packages/engine/test/bare.js';

const N = Number(process.env.BENCH_ENGINE_COMMANDS ?? 5_000_000);
const TARGET_RESTING = 1000;
const CROSSING_MOVES = 0.1; // share of moves allowed to cross the spread
const SEED = 20240611;
const NOB_BUDGET_S = 60; // nodejs-order-book runs the full stream only if projected under this
const NOB_PREFIX = 500_000;
const CHECK_PREFIX = 20_000;
const BATCH = 64; // commands per timed batch
const SAMPLE_EVERY = 61; // one single-command timing every N commands (separate run)

const enum Cmd {
  GTC = 0,
  IOC = 1,
  CANCEL = 2,
  MOVE = 3,
}

interface Stream {
  n: number;
  type: Uint8Array;
  id: Int32Array;
  owner: Int32Array;
  side: Uint8Array; // 0 = buy YES (bid), 1 = sell YES (ask)
  price: Int32Array; // YES cents; new price for MOVE
  qty: Int32Array;
  maxId: number;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The one listener class used everywhere in this benchmark (generation, warm-up, timed runs,
 * cross-check), so the engine's call sites only ever see one listener map. In timed runs it
 * just counts trades and traded quantity; the optional hooks are null there.
 */
export class BenchListener implements EngineListener {
  fills = 0;
  filledQty = 0;
  tracker: Tracker | null = null;
  trades: number[] | null = null;
  onAccepted(): void {}
  onRejected(): void {}
  onFill(m: number, t: number, _mo: number, _to: number, p: number, qty: number, _k: number, _mk: number, _tk: number, mRem: number, tRem: number): void {
    this.fills++;
    this.filledQty += qty;
    if (this.tracker !== null) this.tracker.fill(m, t, mRem, tRem);
    if (this.trades !== null) this.trades.push(m, p, qty);
  }
  onCancelled(id: number): void {
    if (this.tracker !== null) this.tracker.cancelled(id);
  }
  onExpired(): void {}
  onReduced(): void {}
  onMoved(): void {}
  onLevel(): void {}
}

/** Tracks which ids rest in the generator's own book (generation only, not timed). */
class Tracker {
  livePos: Int32Array;
  live: Int32Array;
  count = 0;
  price: Int32Array;
  side: Uint8Array;
  takerRemaining = 0;
  takerCancelled = false;
  constructor(maxId: number) {
    this.livePos = new Int32Array(maxId + 1).fill(-1);
    this.live = new Int32Array(maxId + 1);
    this.price = new Int32Array(maxId + 1);
    this.side = new Uint8Array(maxId + 1);
  }
  add(id: number): void {
    this.livePos[id] = this.count;
    this.live[this.count++] = id;
  }
  remove(id: number): void {
    const p = this.livePos[id]!;
    if (p < 0) return;
    const last = this.live[--this.count]!;
    this.live[p] = last;
    this.livePos[last] = p;
    this.livePos[id] = -1;
  }
  fill(m: number, t: number, mRem: number, tRem: number): void {
    if (mRem === 0) this.remove(m);
    if (tRem === 0) this.remove(t);
    this.takerRemaining = tRem;
  }
  cancelled(id: number): void {
    this.remove(id);
    this.takerCancelled = true;
  }
}

export function generate(n: number, seed: number): Stream {
  const rng = mulberry32(seed);
  const s: Stream = {
    n,
    type: new Uint8Array(n),
    id: new Int32Array(n),
    owner: new Int32Array(n),
    side: new Uint8Array(n),
    price: new Int32Array(n),
    qty: new Int32Array(n),
    maxId: 0,
  };
  const tr = new Tracker(n);
  const gl = new BenchListener();
  gl.tracker = tr;
  const book = new MarketBook(gl, { capacity: 4096 });
  let nextId = 1;
  const clamp = (p: number): number => (p < 1 ? 1 : p > 99 ? 99 : p);
  for (let i = 0; i < n; i++) {
    const bb = book.bestBid;
    const ba = book.bestAsk;
    let mid = bb > 0 && ba < 100 ? (bb + ba) / 2 : bb > 0 ? bb + 1 : ba < 100 ? ba - 1 : 50;
    mid = mid < 15 ? 15 : mid > 85 ? 85 : mid;
    const bidBase = Math.ceil(mid) - 1;
    const askBase = Math.floor(mid) + 1;
    const live = tr.count;
    const r = rng();
    let type: Cmd;
    if (live < TARGET_RESTING * 0.8) type = Cmd.GTC;
    else if (r < 0.82) type = Cmd.MOVE;
    else if (r < 0.92) type = Cmd.GTC;
    else if (r < 0.95) type = Cmd.IOC;
    else type = Cmd.CANCEL;
    if (type === Cmd.GTC && live > TARGET_RESTING * 1.1) type = Cmd.CANCEL;
    s.type[i] = type;
    if (type === Cmd.GTC || type === Cmd.IOC) {
      const id = nextId++;
      const side = rng() < 0.5 ? 0 : 1;
      let price: number;
      let qty: number;
      if (type === Cmd.GTC) {
        const aggressive = rng() < 0.05;
        const off = aggressive ? Math.floor(rng() * 3) : Math.floor(-Math.log(1 - rng()) * 4);
        price = aggressive ? (side === 0 ? askBase + off : bidBase - off) : side === 0 ? bidBase - off : askBase + off;
        qty = 1 + Math.floor(rng() * rng() * 100);
      } else {
        const off = Math.floor(rng() * 4);
        price = side === 0 ? askBase + off : bidBase - off;
        qty = 1 + Math.floor(rng() * rng() * 50);
      }
      price = clamp(price);
      const owner = 1 + Math.floor(rng() * 1000);
      s.id[i] = id;
      s.owner[i] = owner;
      s.side[i] = side;
      s.price[i] = price;
      s.qty[i] = qty;
      tr.takerRemaining = qty;
      tr.takerCancelled = false;
      book.place(id, owner, Outcome.YES, side, price, qty, type === Cmd.GTC ? Tif.GTC : Tif.IOC, 0, 0, 0);
      if (type === Cmd.GTC && tr.takerRemaining > 0 && !tr.takerCancelled) {
        tr.add(id);
        tr.price[id] = price;
        tr.side[id] = side;
      }
    } else {
      const id = tr.live[Math.floor(rng() * live)]!;
      s.id[i] = id;
      if (type === Cmd.CANCEL) {
        book.cancel(id);
      } else {
        const p = tr.price[id]!;
        let d = (rng() < 0.5 ? -1 : 1) * (1 + Math.floor(rng() * 2));
        if (Math.abs(p - mid) > 12) d = p > mid ? -1 - Math.floor(rng() * 2) : 1 + Math.floor(rng() * 2);
        let np = clamp(p + d);
        // most moves re-price inside the own side of the book; some cross the spread and trade
        const bid = tr.side[id] === 0;
        if (rng() >= CROSSING_MOVES) {
          if (bid && np >= ba) np = ba - 1;
          else if (!bid && np <= bb) np = bb + 1;
        }
        if (np === p) np = bid ? p - 1 : p + 1;
        np = clamp(np);
        if (np === p) np = p === 1 ? 2 : p - 1;
        s.price[i] = np;
        tr.price[id] = np;
        book.move(id, np);
      }
    }
  }
  s.maxId = nextId;
  return s;
}

// ------------------------------------------------------------------ drivers

export function runEngine(book: MarketBook, s: Stream, from: number, to: number): void {
  const type = s.type;
  const id = s.id;
  const owner = s.owner;
  const side = s.side;
  const price = s.price;
  const qty = s.qty;
  for (let i = from; i < to; i++) {
    switch (type[i]) {
      case Cmd.GTC:
        book.place(id[i]!, owner[i]!, Outcome.YES, side[i]!, price[i]!, qty[i]!, Tif.GTC, 0, 0, 0);
        break;
      case Cmd.IOC:
        book.place(id[i]!, owner[i]!, Outcome.YES, side[i]!, price[i]!, qty[i]!, Tif.IOC, 0, 0, 0);
        break;
      case Cmd.CANCEL:
        book.cancel(id[i]!);
        break;
      default:
        book.move(id[i]!, price[i]!, 0);
    }
  }
}

/** The same stream through the bare reference (ids are dense: it indexes its arrays by id). */
export function runBare(book: BareBook, s: Stream, from: number, to: number): void {
  const type = s.type;
  const id = s.id;
  const side = s.side;
  const price = s.price;
  const qty = s.qty;
  for (let i = from; i < to; i++) {
    switch (type[i]) {
      case Cmd.GTC:
        book.place(id[i]!, side[i]!, price[i]!, qty[i]!, false);
        break;
      case Cmd.IOC:
        book.place(id[i]!, side[i]!, price[i]!, qty[i]!, true);
        break;
      case Cmd.CANCEL:
        book.cancel(id[i]!);
        break;
      default:
        book.move(id[i]!, price[i]!);
    }
  }
}

type NobSide = Parameters<OrderBook['limit']>[0]['side'];
type NobTif = NonNullable<Parameters<OrderBook['limit']>[0]['timeInForce']>;
const BUY = 'buy' as NobSide;
const SELL = 'sell' as NobSide;
const GTC = 'GTC' as NobTif;
const IOC = 'IOC' as NobTif;

type NobResult = ReturnType<OrderBook['limit']>;

function runNob(ob: OrderBook, s: Stream, sid: string[], from: number, to: number, onResult?: (i: number, r: NobResult | undefined) => void): void {
  for (let i = from; i < to; i++) {
    const t = s.type[i];
    const id = sid[s.id[i]!]!;
    let r: NobResult | undefined;
    if (t === Cmd.GTC || t === Cmd.IOC) {
      r = ob.limit({ id, side: s.side[i] === 0 ? BUY : SELL, size: s.qty[i]!, price: s.price[i]!, timeInForce: t === Cmd.GTC ? GTC : IOC });
    } else if (t === Cmd.CANCEL) {
      ob.cancel(id);
    } else {
      r = ob.modify(id, { price: s.price[i]! });
    }
    if (onResult) onResult(i, r);
  }
}

// ------------------------------------------------------------------ helpers

const hr = process.hrtime.bigint;
const gc = (globalThis as { gc?: () => void }).gc;

function pct(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}
const fmtNs = (ns: number): string => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);
const fmtM = (x: number): string => `${(x / 1e6).toFixed(2)} M`;

function timerOverheadNs(): number {
  const k = 20001;
  const d = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    const a = hr();
    const b = hr();
    d[i] = Number(b - a);
  }
  d.sort();
  return pct(d, 0.5);
}

// ------------------------------------------------------------------ main

export async function benchEngine(): Promise<void> {
  console.log(`== engine: exchange-core-like stream, ${fmtM(N)}commands, ~${TARGET_RESTING} resting orders, seed ${SEED}`);
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}, load average at start ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const t0 = performance.now();
  const s = generate(N, SEED);
  const counts = [0, 0, 0, 0];
  for (let i = 0; i < N; i++) counts[s.type[i]!]!++;
  const share = (k: number): string => `${((100 * counts[k]!) / N).toFixed(1)}%`;
  console.log(
    `stream: GTC ${share(0)}, IOC ${share(1)}, cancel ${share(2)}, move ${share(3)}; YES bids/asks only; generated up front into typed arrays in ${((performance.now() - t0) / 1000).toFixed(1)} s (not timed)`,
  );

  // Collect the generator's garbage now: code optimized during generation that still refers
  // to its (now dead) tracker is discarded here and re-optimized during the warm-up, not in a timed run.
  gc?.();
  // --- warm-up (JIT): three passes over the stream on fresh books, in chunks so that the
  // driver loop gets a regular optimized entry (not only on-stack replacement)
  for (let w = 0; w < 3; w++) {
    const wb = new MarketBook(new BenchListener(), { capacity: 4096 });
    for (let i = 0; i < N; i += 1000) runEngine(wb, s, i, Math.min(N, i + 1000));
    const bb = new BareBook(s.maxId);
    for (let i = 0; i < N; i += 1000) runBare(bb, s, i, Math.min(N, i + 1000));
  }

  // --- throughput: whole stream, no instrumentation, RUNS runs on fresh books; GC activity observed.
  // Each run feeds the engine and the bare reference the same stream in alternating chunks of
  // CHUNK commands (which of the two goes first alternates too), timing each side's chunks, so a
  // burst of load from other processes hits both sides of the ratio alike.
  const RUNS = 5;
  const CHUNK = 20_000;
  const rates: number[] = [];
  const bareRates: number[] = [];
  const shares: number[] = [];
  let bareSame = true;
  let gcCount = 0;
  let gcMaxMs = 0;
  const heapGrowth: number[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcCount++;
      gcMaxMs = Math.max(gcMaxMs, e.duration);
    }
  });
  for (let rep = 0; rep < RUNS; rep++) {
    const l = new BenchListener();
    const book = new MarketBook(l, { capacity: 4096 });
    const bare = new BareBook(s.maxId);
    gc?.();
    await new Promise((r) => setImmediate(r));
    obs.observe({ entryTypes: ['gc'] });
    const heap0 = process.memoryUsage().heapUsed;
    let ns = 0;
    let bareNs = 0;
    for (let i = 0, k = 0; i < N; i += CHUNK, k++) {
      const j = Math.min(N, i + CHUNK);
      const a = hr();
      if (k % 2 === 0) runEngine(book, s, i, j);
      else runBare(bare, s, i, j);
      const b = hr();
      if (k % 2 === 0) runBare(bare, s, i, j);
      else runEngine(book, s, i, j);
      const c = hr();
      ns += Number(k % 2 === 0 ? b - a : c - b);
      bareNs += Number(k % 2 === 0 ? c - b : b - a);
    }
    heapGrowth.push(process.memoryUsage().heapUsed - heap0);
    await new Promise((r) => setImmediate(r));
    obs.disconnect();
    rates.push(N / (ns / 1e9));
    bareRates.push(N / (bareNs / 1e9));
    shares.push(bareNs / ns);
    if (bare.trades !== l.fills || bare.tradedQty !== l.filledQty) bareSame = false;
    if (rep === RUNS - 1) {
      console.log(`engine: ${l.fills} trades, ${l.filledQty} shares traded, ${book.size} orders resting at end`);
      console.log(`bare reference: ${bare.trades} trades, ${bare.tradedQty} shares traded (${bareSame ? 'same as the engine in every run' : 'DIFFERENT FROM THE ENGINE'})`);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
  const rate = median(rates);
  const bareRate = median(bareRates);
  const bareShare = median(shares);
  console.log(`engine throughput: ${fmtM(rate)}commands/s (median of ${RUNS} full runs on fresh books, in run order: ${rates.map(fmtM).join(' / ')}; chunks of ${CHUNK} commands alternating with the bare reference)`);
  console.log(
    `bare reference (flat price levels, FIFO queues in typed arrays indexed by id, no events, no features): ${fmtM(bareRate)}commands/s (in run order: ${bareRates.map(fmtM).join(' / ')}); ` +
      `engine share of bare, per pair: ${shares.map((x) => `${(100 * x).toFixed(0)}%`).join(' / ')}, median ${(100 * bareShare).toFixed(1)}%`,
  );
  if (!bareSame) process.exitCode = 1;
  console.log(
    `allocation check (both matchers): ${gcCount} garbage collections during the ${RUNS} timed runs (longest ${gcMaxMs.toFixed(2)} ms); ` +
      `heap growth per ${fmtM(N)}command run, in run order: ${heapGrowth.map((b) => `${(b / 1024).toFixed(0)} KiB`).join(' / ')} (early runs include JIT code and feedback)`,
  );

  // --- latency A: contiguous batches of BATCH commands timed with hrtime.bigint
  const overhead = timerOverheadNs();
  const nb = Math.floor(N / BATCH);
  const batchNs = new Float64Array(nb);
  let latGc = 0;
  let latGcMax = 0;
  let ctxSwitches = 0;
  {
    const book = new MarketBook(new BenchListener(), { capacity: 4096 });
    gc?.();
    await new Promise((r) => setImmediate(r));
    const gcObs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        latGc++;
        latGcMax = Math.max(latGcMax, e.duration);
      }
    });
    gcObs.observe({ entryTypes: ['gc'] });
    const ru0 = process.resourceUsage().involuntaryContextSwitches;
    let prev = hr();
    for (let b = 0; b < nb; b++) {
      runEngine(book, s, b * BATCH, (b + 1) * BATCH);
      const now = hr();
      batchNs[b] = Number(now - prev);
      prev = now;
    }
    ctxSwitches = process.resourceUsage().involuntaryContextSwitches - ru0;
    await new Promise((r) => setImmediate(r));
    gcObs.disconnect();
  }
  const perCmd = new Float64Array(nb);
  for (let b = 0; b < nb; b++) perCmd[b] = batchNs[b]! / BATCH;
  perCmd.sort();
  let maxBatch = 0;
  let slowBatches = 0;
  for (let b = 0; b < nb; b++) {
    if (batchNs[b]! > maxBatch) maxBatch = batchNs[b]!;
    if (batchNs[b]! > 1e6) slowBatches++;
  }

  // --- latency B: single commands sampled every SAMPLE_EVERY-th command
  const ns1 = Math.floor(N / SAMPLE_EVERY);
  const single = new Float64Array(ns1);
  {
    const book = new MarketBook(new BenchListener(), { capacity: 4096 });
    gc?.();
    let k = 0;
    for (let i = 0; i < N; i += SAMPLE_EVERY) {
      const end = Math.min(N, i + SAMPLE_EVERY);
      runEngine(book, s, i, end - 1);
      const a = hr();
      runEngine(book, s, end - 1, end);
      const d = Number(hr() - a) - overhead;
      if (k < ns1) single[k++] = d < 0 ? 0 : d;
    }
  }
  single.sort();

  console.log(
    `latency method: (a) the stream runs in contiguous batches of ${BATCH} commands, each timed with process.hrtime.bigint(); per-command latency = batch time / ${BATCH} (${nb} batches). ` +
      `(b) every ${SAMPLE_EVERY}th command is timed alone in a separate run, minus the measured timer overhead (${overhead.toFixed(0)} ns, median of back-to-back hrtime calls). ` +
      `Longest pause = longest batch of (a) (contiguous, so it bounds any stall). GC is not forced during timed loops.`,
  );
  console.log(`latency (a) batch average per command: p50 ${fmtNs(pct(perCmd, 0.5))}, p99 ${fmtNs(pct(perCmd, 0.99))}, p99.9 ${fmtNs(pct(perCmd, 0.999))}, max ${fmtNs(perCmd[nb - 1]!)}`);
  console.log(`latency (b) single command samples (${ns1}): p50 ${fmtNs(pct(single, 0.5))}, p99 ${fmtNs(pct(single, 0.99))}, p99.9 ${fmtNs(pct(single, 0.999))}, max ${fmtNs(single[ns1 - 1]!)}`);
  console.log(
    `longest pause: ${fmtNs(maxBatch)} (longest batch of ${BATCH} commands); batches over 1 ms: ${slowBatches}; during that run: ${latGc} GCs (longest ${latGcMax.toFixed(2)} ms), ` +
      `${ctxSwitches} involuntary context switches (the OS preempting this process: other load on the machine)`,
  );

  // --- same trades? our engine vs nodejs-order-book on a prefix
  const sid: string[] = new Array<string>(s.maxId + 1);
  for (let i = 0; i <= s.maxId; i++) sid[i] = `o${i}`;
  {
    const cp = Math.min(N, CHECK_PREFIX);
    const log = new BenchListener();
    log.trades = [];
    const book = new MarketBook(log, { capacity: 4096 });
    runEngine(book, s, 0, cp);
    const ob = new OrderBook();
    const nobTrades: number[] = [];
    runNob(ob, s, sid, 0, cp, (i, r) => {
      if (r === undefined || r.err) return;
      const taker = sid[s.id[i]!]!;
      for (const d of r.done) if (d.id !== taker) nobTrades.push(Number(d.id.slice(1)), (d as { price: number }).price, d.size);
      if (r.partial !== null && r.partial.id !== taker) nobTrades.push(Number(r.partial.id.slice(1)), (r.partial as { price: number }).price, r.partialQuantityProcessed);
    });
    let same = nobTrades.length === log.trades!.length;
    for (let i = 0; same && i < nobTrades.length; i++) same = nobTrades[i] === log.trades![i];
    const [asks, bids] = ob.depth();
    const ourBids = book.levels(0);
    const ourAsks = book.levels(1);
    const depthSame = JSON.stringify(bids) === JSON.stringify(ourBids) && JSON.stringify(asks) === JSON.stringify(ourAsks);
    const qty = (t: number[]): number => t.reduce((a, v, i) => (i % 3 === 2 ? a + v : a), 0);
    console.log(
      `cross-check on first ${cp} commands: engine ${log.trades!.length / 3} trades / ${qty(log.trades!)} shares, nodejs-order-book ${nobTrades.length / 3} trades / ${qty(nobTrades)} shares; ` +
        `trade lists (maker id, price, qty, in order) ${same ? 'IDENTICAL' : 'DIFFER'}; final depth ${depthSame ? 'identical' : 'DIFFERS'}`,
    );
    if (!same || !depthSame) process.exitCode = 1;
  }

  // --- nodejs-order-book, same stream
  let nobN = N;
  let nobNs = 0;
  {
    // warm-up
    const wob = new OrderBook();
    runNob(wob, s, sid, 0, Math.min(N, 100_000));
    const ob = new OrderBook();
    gc?.();
    const first = Math.min(N, NOB_PREFIX);
    let a = hr();
    runNob(ob, s, sid, 0, first);
    nobNs = Number(hr() - a);
    const projected = (nobNs / first) * N / 1e9;
    if (first < N && projected <= NOB_BUDGET_S) {
      a = hr();
      runNob(ob, s, sid, first, N);
      nobNs += Number(hr() - a);
    } else {
      nobN = first;
    }
    const note = nobN === N ? 'full stream' : `first ${fmtM(nobN)}commands only (full stream projected at ${projected.toFixed(0)} s > ${NOB_BUDGET_S} s budget)`;
    console.log(`nodejs-order-book 10.1.1 (new OrderBook(): journaling off, no snapshot/journal replay; limit()/cancel()/modify(), string ids 'o'+n prebuilt): ${note}`);
  }
  const nobRate = nobN / (nobNs / 1e9);
  console.log(`nodejs-order-book throughput: ${fmtM(nobRate)}commands/s`);
  const bars = [
    [`>= 50% of the bare reference`, bareShare >= 0.5],
    [`>= 75x nodejs-order-book`, rate / nobRate >= 75],
    [`p99 <= 0.5 µs (batch avg)`, pct(perCmd, 0.99) <= 500],
    [`p99 <= 0.5 µs (single samples)`, pct(single, 0.99) <= 500],
    [`no pause over 1 ms`, maxBatch <= 1e6],
  ] as const;
  console.log(`bars: ${bars.map(([n, ok]) => `${n}: ${ok ? 'met' : 'NOT MET'}`).join('; ')}`);
  console.log(`engine: ${Math.round(rate)} commands/s, ${(rate / nobRate).toFixed(1)}x nodejs-order-book, ${(100 * bareShare).toFixed(1)}% of bare`);
}
