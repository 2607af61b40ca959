// The export's worker thread (see rewrite-off-thread.ts): rewrites one COPY batch's CSV into the
// record path's CSV (CopyCsvRewriter) while the main thread has PGlite read the next batch.
import { parentPort } from 'node:worker_threads';
import { type CopyColumnKind, CopyCsvRewriter } from './copy-csv.js';
import type { RewriteJob, RewriteReply, SideJob, WireKind } from './rewrite-off-thread.js';

const port = parentPort;
if (!port) throw new Error('rewrite-worker: not a worker thread');

// A declaration's finishing function, loaded once from the module that exports it.
const finishers = new Map<string, Promise<(text: string, context?: unknown) => string>>();
function finisher(module: string, name: string): Promise<(text: string, context?: unknown) => string> {
  const key = `${module}#${name}`;
  let f = finishers.get(key);
  if (!f) {
    f = import(module).then((m: Record<string, unknown>) => {
      const fn = m[name];
      if (typeof fn !== 'function') throw new Error(`rewrite-worker: ${module} exports no function ${name}`);
      return fn as (text: string, context?: unknown) => string;
    });
    finishers.set(key, f);
  }
  return f;
}

/**
 * A side read's cell: the key the batch's row holds, finished from that key's lines of the side
 * read (consecutive: the read is ordered by its key, which is its first field and unquoted).
 */
async function sideKind(side: SideJob): Promise<(key: string) => string> {
  const finish = await finisher(side.module, side.name);
  const text = Buffer.from(side.csv.buffer, side.csv.byteOffset, side.csv.length).toString('utf8');
  const byKey = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    const comma = text.indexOf(',', i);
    if (comma < 0) throw new Error('rewrite-worker: a side read gives its key and at least one column');
    const prefix = text.slice(i, comma + 1);
    let end = text.indexOf('\n', i) + 1;
    while (end > 0 && end < text.length && text.startsWith(prefix, end)) end = text.indexOf('\n', end) + 1;
    if (end === 0) end = text.length;
    byKey.set(prefix.slice(0, -1), text.slice(i, end));
    i = end;
  }
  return (key) => finish(byKey.get(key) ?? '', side.context);
}

function kindOf(k: WireKind, sides: SideJob[] | undefined): CopyColumnKind | Promise<CopyColumnKind> {
  if (typeof k === 'string') return k;
  if ('side' in k) {
    const side = sides?.[k.side];
    if (!side) throw new Error(`rewrite-worker: no side read ${k.side}`);
    return sideKind(side);
  }
  if (k.context === undefined) return finisher(k.module, k.name);
  const context = k.context;
  return finisher(k.module, k.name).then((fn) => (text: string) => fn(text, context));
}

// The rewriters' working memory, kept from one job to the next (a job's rewriting runs to its end
// without yielding, and its output is a copy).
let scratch: Buffer | undefined;

port.on('message', async (job: RewriteJob) => {
  let reply: RewriteReply;
  const transfer: ArrayBuffer[] = [];
  try {
    const kinds = await Promise.all(job.kinds.map((k) => kindOf(k, job.sides)));
    const rewriter = new CopyCsvRewriter(kinds, job.timezone, scratch);
    const input = Buffer.from(job.csv.buffer, job.csv.byteOffset, job.csv.length);
    const out = rewriter.push(input);
    scratch = rewriter.buffer;
    rewriter.end();
    // Handed back without a copy when the bytes have their own memory (not a slice of Node's pool).
    const own = out.byteOffset === 0 && out.buffer.byteLength === out.length ? new Uint8Array(out.buffer) : Uint8Array.from(out);
    transfer.push(own.buffer as ArrayBuffer);
    reply = { id: job.id, csv: own, rows: rewriter.rows, lastKeys: rewriter.lastKeys };
  } catch (err) {
    reply = { id: job.id, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply, transfer);
});
