// The export's CSV rewriting on a worker thread (PGlite).
//
// PGlite runs in the server's own thread: an export there is the database's work (reading a batch,
// writing its COPY) and Node's (CopyCsvRewriter over its bytes, the declarations' `finish` of
// their cells), one after the other on one core. Rewriting a batch on this worker while the main
// thread has the database read the next one lets the two halves overlap. One worker per process,
// started with the first export that needs it and kept (a batch's job has no state of its own);
// it holds the process open only while a job is in flight.
import { Worker } from 'node:worker_threads';
import type { CopyColumnKind } from './copy-csv.js';

/**
 * A column's kind as the worker gets it: a declaration's function by its module and export name, or
 * `{ side }`: the cell is a key into the job's side read of that index (see `SqlExportSpec.sideReads`).
 */
export type WireKind = Exclude<CopyColumnKind, (text: string) => string> | { module: string; name: string; context?: unknown } | { side: number };

/** A side read's rows for one batch (COPY CSV, key first, ordered by it) and how the worker finishes a key's rows. */
export interface SideJob {
  module: string;
  name: string;
  csv: Uint8Array;
  context: unknown;
}

export interface RewriteJob {
  id: number;
  kinds: WireKind[];
  timezone: string;
  /** One COPY batch's CSV, whole rows; transferred (the sender keeps no view of it). */
  csv: Uint8Array;
  /** The batch's side reads, by the index `{ side }` kinds name (their bytes transferred too). */
  sides?: SideJob[];
}
export type RewriteReply = { id: number; csv: Uint8Array; rows: number; lastKeys: string[] | null } | { id: number; error: string };

/** A rewritten batch: the record path's CSV bytes, its rows, the last row's key columns. */
export interface Rewritten {
  csv: Buffer;
  rows: number;
  lastKeys: string[] | null;
}

/**
 * A declaration's finishing function, known by the module the worker can load it from (`finishModule`
 * beside `finish` in `sqlExport.cells`). Functions cannot be sent to a thread.
 */
const modules = new WeakMap<(text: string, context: never) => string, string>();
export function finishFrom<F extends (text: string, context: never) => string>(fn: F, module: string): F {
  if (!fn.name) throw new Error('finishFrom: the function needs its exported name');
  modules.set(fn, module);
  return fn;
}

/** A registered function as the worker loads it (its module and export name), or null. */
export function wireFunction(fn: (text: string, context: never) => string): { module: string; name: string } | null {
  const module = modules.get(fn);
  return module ? { module, name: fn.name } : null;
}

const bound = new WeakMap<(text: string) => string, { fn: (text: string, context: never) => string; context: unknown }>();

/**
 * A cell's finishing with the export's context bound (`finish(text, context)`), as a column kind;
 * the worker gets the function by its module and the context (structured-cloneable) with it.
 */
export function withContext<C>(fn: (text: string, context: C) => string, context: C): (text: string) => string {
  const finish = (text: string) => fn(text, context);
  bound.set(finish, { fn: fn as (text: string, context: never) => string, context });
  return finish;
}

/** The kinds as the worker takes them, or null when a function has no module it can be loaded from. */
export function wireKinds(kinds: readonly CopyColumnKind[]): WireKind[] | null {
  const out: WireKind[] = [];
  for (const k of kinds) {
    if (typeof k !== 'function') out.push(k);
    else {
      const b = bound.get(k);
      const fn = wireFunction(b ? b.fn : k);
      if (!fn) return null;
      out.push(b ? { ...fn, context: b.context } : fn);
    }
  }
  return out;
}

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, { resolve: (r: Rewritten) => void; reject: (e: Error) => void }>();

/**
 * The worker's script: the built `.js` beside this file; from the TypeScript sources (tests,
 * benchmarks, `npm run dev`) the `.ts`, loaded through tsx (a development dependency), which the
 * thread registers before importing it.
 */
function start(): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './rewrite-worker.ts' : './rewrite-worker.js', import.meta.url);
  const w = fromSource
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`, { eval: true })
    : new Worker(entry);
  const fail = (err: Error) => {
    if (worker === w) worker = null;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('message', (reply: RewriteReply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (pending.size === 0) w.unref();
    if ('error' in reply) p.reject(new Error(reply.error));
    else p.resolve({ csv: Buffer.from(reply.csv.buffer, reply.csv.byteOffset, reply.csv.length), rows: reply.rows, lastKeys: reply.lastKeys });
  });
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`export: the CSV worker thread stopped (exit code ${code})`)));
  w.unref();
  return w;
}

/** Rewrites one batch's COPY CSV on the worker thread. `csv` and the sides' bytes are handed over: the caller must not touch them afterwards. */
export function rewriteOffThread(kinds: WireKind[], timezone: string, csv: Uint8Array, sides?: SideJob[]): Promise<Rewritten> {
  worker ??= start();
  const w = worker;
  const id = nextId++;
  return new Promise<Rewritten>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.ref();
    const job: RewriteJob = { id, kinds, timezone, csv, sides };
    const transfer: ArrayBuffer[] = [];
    for (const bytes of [csv, ...(sides ?? []).map((x) => x.csv)]) {
      if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) transfer.push(bytes.buffer as ArrayBuffer);
    }
    w.postMessage(job, transfer);
  });
}
