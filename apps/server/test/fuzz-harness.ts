import { allEndpoints, findUncleanText, isCleanText, RESOURCES, RESTRICTION_NAMES, sortKeys } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect } from 'vitest';
import { queryRows } from '../src/db/client.js';
import type { RegisteredRoute } from '../src/http/access.js';
import { bodyArb, ID_POOL, queryArb, short, toJsonSchema, type Hints } from './fuzz-arbitraries.js';
import { call, login, makeSubAdmin, startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from './helpers.js';

/**
 * Schema-driven fuzzing of every API route the server registered, as three callers (one test file
 * each, so they run side by side: fuzz-anonymous, fuzz-view-only, fuzz-super-admin): anonymous,
 * a view-only sub-admin (every right with canView, none with canEdit) and the super admin.
 * Requests come from the route's own zod schemas (→ JSON Schema → fast-check), mixing values of
 * the right shape with hostile ones (wrong types, control characters, lone surrogates, huge and
 * odd unicode strings, numbers past a double or a bigint, extra and prototype keys, broken JSON).
 *
 * For every request: never a 5xx; the answer is the JSON envelope (a CSV export aside); an
 * anonymous caller of a non-public route gets 401 and a view-only caller of a write gets 403
 * whatever the input; and a 4xx wrote nothing: no row of any table changed (audit log, login
 * history and sessions' last_seen_at aside, which a refusal legitimately writes) is the same after.
 *
 * Not fuzzed:
 * - `POST /api/admin/logout` as a signed-in caller: whatever the body, it ends the caller's own
 *   session (it is fuzzed anonymously, where it must be refused).
 * Fuzzed although they touch the caller's own account, because a random body cannot succeed:
 * `POST /api/admin/changePassword` (needs the current password, which is never generated),
 * `PUT /api/admin/profile` (an email change needs the current password; a name change is harmless),
 * `POST /api/admin/resetPassword` (needs a reset token) and `POST /api/admin/login` (needs a password).
 * A fuzzed success may still disable, delete, block or sign out a fixture account (bulk actions, a
 * sub-admin's sessions, a blocked range): between routes the fixture is checked and restored.
 * Each caller sends from its own address, and the fixture signs in from 127.0.0.1, which no fuzzed
 * request uses; a block that catches any of them is removed before the next route.
 */

/**
 * Reproducing a failure: FUZZ_ROUTE=<substring of "METHOD /url"> limits the routes, FUZZ_SEED=<seed>
 * replays fast-check's run (with FUZZ_PATH=<path> for the shrunk case), FUZZ_SCALE=<n> multiplies the runs.
 */
const ONLY = process.env.FUZZ_ROUTE;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const PATH = process.env.FUZZ_PATH;
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);

type Who = 'anon' | 'view' | 'super';
/** Each caller has its own address: throttles and blocks hit one caller, and 127.0.0.1 stays for fixture work. */
const IP: Record<Who, string> = { anon: '198.51.100.10', view: '198.51.100.20', super: '198.51.100.30' };
// The overview's stream stays open for a signed-in caller with the right (an injected request would never
// end); anonymous callers still fuzz it, and market-overview.test.ts covers its refusals on a real socket.
/** Endpoints declared to answer something else than the envelope (a document, a page, a file). */
const RAW_ANSWERS = new Set(allEndpoints().filter((e) => e.raw).map((e) => e.key));
const SKIP_SIGNED_IN = new Set(['POST /api/admin/logout', 'GET /api/admin/market-overview/stream', 'GET /api/admin/notifications/stream']);

let s: TestServer;
const tokens: Record<Exclude<Who, 'anon'>, string> = { view: '', super: '' };
const allView = RESTRICTION_NAMES.map((name) => ({ name, canView: true, canEdit: false }));
let tables: string[] = [];
let moduleIds: string[] = [];
const timings: string[] = [];

/**
 * What a request wrote, seen by triggers: every user table of `public` logs each row it inserts,
 * deletes or really changes (and a truncate) into `fuzz_writes`, in the writing transaction, so a
 * rolled-back write leaves nothing. One DELETE … RETURNING per request reads and clears the log
 * (an md5 of every table per request cost most of the run). Left out, as a refusal may write them:
 * the audit log, sign-in history, rate-limit counters, a session's addresses, and a session's
 * `last_seen_at` (only its existence and `revoked_at` count).
 */
async function installWriteLog() {
  const rows = await queryRows<{ table_name: string }>(s.database.db, sql`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like '%drizzle%'
    order by table_name`);
  // rate_limits: a refused request still counts against its route's limit (as a 429 does).
  // admin_session_addresses: a refused request still used its session from its address (as it
  // touches the session), which the blocked-IP rule must know.
  const skipped = new Set(['audit_log', 'login_history', 'rate_limits', 'admin_session_addresses', 'fuzz_writes']);
  tables = rows.map((r) => r.table_name).filter((t) => !skipped.has(t));
  const run = (text: string) => s.database.db.execute(sql.raw(text));
  await run('create table if not exists fuzz_writes (table_name text not null)');
  await run(`create or replace function fuzz_note_write() returns trigger language plpgsql as $$
    begin insert into fuzz_writes values (tg_table_name); return null; end $$`);
  for (const t of tables) {
    const changed = t === 'admin_sessions' ? 'old.revoked_at is distinct from new.revoked_at' : 'old.* is distinct from new.*';
    await run(`create trigger fuzz_row_written after insert or delete on "${t}" for each row execute function fuzz_note_write()`);
    await run(`create trigger fuzz_row_changed after update on "${t}" for each row when (${changed}) execute function fuzz_note_write()`);
    await run(`create trigger fuzz_truncated after truncate on "${t}" for each statement execute function fuzz_note_write()`);
  }
}

/** The tables written since the last call (sorted, each once), clearing the log. */
async function writtenTables(): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(s.database.db, sql`delete from fuzz_writes returning table_name`);
  return [...new Set(rows.map((r) => r.table_name))].sort();
}

/** One request as a caller, from that caller's address; the body is sent as given (raw JSON text). */
function send(who: Who, method: string, url: string, opts: { payload?: string | undefined; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (who !== 'anon') headers.authorization = `Bearer ${tokens[who]}`;
  return s.app.inject({ method: method as 'GET', url, headers, ...(opts.payload === undefined ? {} : { payload: opts.payload }), remoteAddress: IP[who] });
}

/** Ids of a few existing records of the route's resource (the list next to `/:id`). */
async function existingIds(route: RegisteredRoute): Promise<string[]> {
  const at = route.url.indexOf('/:');
  if (at < 0) return [];
  const res = await call(s, 'GET', `${route.url.slice(0, at)}?limit=5`, { token: tokens.super, ip: IP.super });
  const items = (res.body?.result?.items ?? []) as { _id?: string }[];
  return items.map((i) => String(i._id)).filter((x) => /^\d+$/.test(x));
}

/** Puts the fixture back between routes: no fixture address blocked, both tokens valid, the view-only admin still view-only. */
async function restoreFixture() {
  await s.idle();
  // The callers' addresses, and 127.0.0.1 where the fixture signs in.
  const blocked = async () => {
    for (const remoteAddress of [...Object.values(IP), '127.0.0.1']) {
      const res = await s.app.inject({ method: 'GET', url: '/api/health', remoteAddress });
      if (res.statusCode === 403) return true;
    }
    return false;
  };
  if (await blocked()) {
    // A fuzzed success blocked a fixture address: remove the blocks (the guard's cache lives a few seconds).
    await s.database.db.execute(sql`delete from blocked_ips where address <> '203.0.113.7/32'`);
    const until = Date.now() + 10_000;
    while ((await blocked()) && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
    if (await blocked()) throw new Error('a fixture address stays blocked');
  }
  const superOk = (await send('super', 'GET', '/api/admin/getadmindetail')).statusCode === 200;
  if (!superOk) tokens.super = await login(s, SUPER_EMAIL, SUPER_PASSWORD);
  const view = await send('view', 'GET', '/api/admin/getadmindetail');
  const rights = view.statusCode === 200 ? (view.json().result.restriction as { name: string; canView: boolean; canEdit: boolean }[]) : [];
  const viewOk = rights.length === allView.length && allView.every((g) => rights.some((r) => r.name === g.name && r.canView && !r.canEdit));
  if (!viewOk) tokens.view = (await makeSubAdmin(s, allView, tokens.super)).token;
}

/** What each caller may expect of a route before its input is even looked at. */
function refusal(who: Who, route: RegisteredRoute): 401 | 403 | null {
  const a = route.access;
  if (a.kind === 'public' || a.kind === 'asset') return null;
  if (who === 'anon') return 401;
  if (who === 'view' && a.kind === 'module' && a.access === 'write') return 403;
  return null;
}

function numRunsFor(who: Who, route: RegisteredRoute): number {
  const key = `${route.method} ${route.url}`;
  // Each login attempt hashes a password: costly, and throttled after a few.
  if (key === 'POST /api/admin/login' || key === 'POST /api/admin/resetPassword' || key === 'POST /api/admin/changePassword') return 15;
  if (refusal(who, route)) return 12;
  if (route.method === 'GET') return who === 'super' ? 35 : 25;
  return who === 'super' ? 70 : 25;
}

interface FuzzRequest {
  url: string;
  payload: string | undefined;
  contentType: string | undefined;
  timezone: string | null;
}

function requestArb(route: RegisteredRoute, hints: Hints): fc.Arbitrary<FuzzRequest> {
  const idArb = fc.oneof({ arbitrary: fc.constantFrom(...ID_POOL), weight: 3 }, ...(hints.ids.length ? [{ arbitrary: fc.constantFrom(...hints.ids), weight: 3 }] : []));
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const params = fc.tuple(...paramNames.map(() => idArb));
  const query = route.schema.querystring ? queryArb(toJsonSchema(route.schema.querystring), hints) : fc.constant('');
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  const body = hasBody ? bodyArb(toJsonSchema(route.schema.body), hints).map((b): string | undefined => b) : fc.constant(undefined);
  const contentType = fc.oneof(
    { arbitrary: fc.constant<string | undefined>('application/json'), weight: 20 },
    fc.constantFrom<string | undefined>(undefined, 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'multipart/form-data; boundary=x'),
  );
  const timezone = fc.option(fc.constantFrom('Europe/Paris', 'Mars/Olympus', 'Etc/GMT+14', 'Pacific/Kiritimati', '../../etc/passwd', 'UTC', 'a'.repeat(100), '+14:00'), { freq: 4 });
  return fc.record({ params, query, body, contentType, timezone }).map(({ params, query, body, contentType, timezone }) => {
    let i = 0;
    const path = route.url.replace(/:(\w+)/g, () => params[i++]!);
    return { url: query ? `${path}?${query}` : path, payload: body, contentType: hasBody ? contentType : undefined, timezone };
  });
}

function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Where a request carries a control character or a lone surrogate (path segment, query key or
 * value, JSON body string or key), as the server decodes them; null when it carries none.
 */
function uncleanInput(r: FuzzRequest): string | null {
  const q = r.url.indexOf('?');
  const pathPart = q < 0 ? r.url : r.url.slice(0, q);
  for (const seg of pathPart.split('/')) {
    let decoded = seg;
    try {
      decoded = decodeURIComponent(seg);
    } catch {
      /* malformed: the router keeps it as is */
    }
    if (!isCleanText(decoded)) return `path segment ${short(decoded)}`;
  }
  if (q >= 0) {
    for (const [k, v] of new URLSearchParams(r.url.slice(q + 1))) if (!isCleanText(k) || !isCleanText(v)) return `query ${short(k)}=${short(v, 60)}`;
  }
  if (r.payload !== undefined) {
    if (r.contentType?.startsWith('application/json')) {
      try {
        const where = findUncleanText(JSON.parse(r.payload));
        if (where !== null) return `body ${short(where) || '(top level)'}`;
      } catch {
        /* not JSON: the server refuses it */
      }
    } else if (!isCleanText(r.payload)) return 'body (text)';
  }
  return null;
}

function describeRequest(who: Who, method: string, r: FuzzRequest): string {
  return `${method} ${short(r.url, 400)} as ${who} (${IP[who]})${r.contentType ? ` content-type ${r.contentType}` : ''}${r.timezone ? ` timezone ${r.timezone}` : ''}${r.payload === undefined ? '' : `\nbody: ${short(r.payload, 600)}`}`;
}

/** Fuzzes every route as one caller; returns one message per failing route (with fast-check's seed and counterexample). */
export async function fuzzAs(who: Who): Promise<string[]> {
  const failures: string[] = [];
  const started = Date.now();
  let requests = 0;
  const statuses: Record<number, number> = {};
  for (const route of s.built.routes) {
    if (!route.url.startsWith('/api/')) continue;
    const key = `${route.method} ${route.url}`;
    if (who !== 'anon' && SKIP_SIGNED_IN.has(key)) continue;
    if (ONLY && !key.includes(ONLY)) continue;
    await restoreFixture();
    const resource = /^\/api\/admin\/([a-z-]+)/.exec(route.url)?.[1];
    const spec = resource ? RESOURCES[resource] : undefined;
    const hints: Hints = { ids: [...new Set([...(await existingIds(route)), ...moduleIds])], names: [...RESTRICTION_NAMES], sorts: spec ? sortKeys(spec) : [] };
    const expected = refusal(who, route);
    await writtenTables();
    const property = fc.asyncProperty(fc.limitShrink(requestArb(route, hints), 40), async (r) => {
      requests++;
      const headers: Record<string, string> = {};
      if (r.timezone) headers.timezone = r.timezone;
      if (r.contentType) headers['content-type'] = r.contentType;
      let res: Awaited<ReturnType<typeof send>>;
      try {
        res = await send(who, route.method, r.url, { payload: r.payload, headers });
      } catch (err) {
        // The server started an answer and then destroyed it (e.g. a stream that failed half-way).
        await s.idle();
        await writtenTables();
        throw new Error(`no complete answer: ${(err as Error).message}\n${describeRequest(who, route.method, r)}`);
      }
      await s.idle();
      const written = await writtenTables();
      const status = res.statusCode;
      statuses[status] = (statuses[status] ?? 0) + 1;
      const what = () => `${describeRequest(who, route.method, r)}\n→ ${status} ${short(res.body, 400)}`;
      if (status >= 500) throw new Error(`server error\n${what()}`);
      const json = jsonObject(res.body);
      const csv = status < 300 && String(res.headers['content-type'] ?? '').startsWith('text/csv');
      // The OpenAPI document and the docs page answer their own formats, declared as `raw`.
      const raw = status < 300 && RAW_ANSWERS.has(key);
      if (!csv && !raw && json?.success !== status < 300) throw new Error(`not the JSON envelope\n${what()}`);
      if (status < 300) {
        const where = uncleanInput(r);
        if (where) throw new Error(`accepted a control character or lone surrogate in ${where}\n${what()}`);
      }
      if (expected && status !== expected && json?.code !== 'BLOCKED_IP') throw new Error(`expected ${expected} before any look at the input\n${what()}`);
      if (status >= 400) {
        const changed = written;
        if (changed.length) throw new Error(`a ${status} answer wrote to ${changed.join(', ')}\n${what()}`);
      }
    });
    const t0 = Date.now();
    try {
      await fc.assert(property, {
        numRuns: Math.ceil(numRunsFor(who, route) * SCALE),
        includeErrorInReport: true,
        ...(SEED === undefined ? {} : { seed: SEED }),
        ...(PATH === undefined ? {} : { path: PATH }),
      });
    } catch (err) {
      failures.push(`${key} as ${who}: ${(err as Error).message}`);
    }
    const ms = Date.now() - t0;
    if (ms > 3000) timings.push(`${key} as ${who}: ${ms} ms`);
  }
  await restoreFixture();
  timings.push(`${who}: ${requests} requests in ${Date.now() - started} ms, statuses ${JSON.stringify(statuses)}`);
  return failures;
}

beforeAll(async () => {
  s = await startTestServer({ PLATFORM_API_KEY: 'fuzz-test-platform-key-0123456789abcdef' });
  tokens.super = await login(s, SUPER_EMAIL, SUPER_PASSWORD);
  tokens.view = (await makeSubAdmin(s, allView, tokens.super)).token;
  // A record or two of every resource, so `/:id` routes also get ids that exist.
  const seed = async (url: string, body: object) => call(s, 'POST', url, { token: tokens.super, body });
  await makeSubAdmin(s, [{ name: 'FAQ', canView: true, canEdit: true }], tokens.super);
  await seed('/api/admin/faqs', { question: 'What is Pitboss?', answer: 'A back-office.', category: 'General' });
  await seed('/api/admin/tags', { name: 'Seed tag', slug: 'seed-tag' });
  await seed('/api/admin/support-categories', { name: 'Seed category' });
  await seed('/api/admin/blocked-wallets', { address: 'So11111111111111111111111111111111111111112', label: 'seed' });
  await seed('/api/admin/whitelist-wallets', { address: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', label: 'seed' });
  await seed('/api/admin/blocked-ips', { address: '203.0.113.7', reason: 'seed' });
  const mod = await seed('/api/admin/modules', { name: 'Seed module' });
  if (mod.body?.result?._id) await seed('/api/admin/sub-modules', { name: 'FAQ', moduleId: mod.body.result._id, pages: ['/faqs'] });
  const modules = await call(s, 'GET', '/api/admin/modules?limit=5', { token: tokens.super });
  moduleIds = ((modules.body?.result?.items ?? []) as { _id: string }[]).map((m) => String(m._id));
  await installWriteLog();
}, 120_000);

afterAll(async () => {
  if (timings.length) console.log(`fuzz timings (${s?.driver}):\n${timings.join('\n')}`);
  await s?.close();
});

/** The write log's own check: it sees a write to any data table, and ignores only what a refusal may write. */
export async function checkWriteLog(): Promise<void> {
  expect(tables).toEqual(expect.arrayContaining(['admins', 'admin_sessions', 'faqs', 'blocked_ips', 'site_settings']));
  expect(tables).not.toContain('audit_log');
  expect(tables).not.toContain('login_history');
  expect(tables).not.toContain('admin_session_addresses');
  await writtenTables();
  const exec = (q: ReturnType<typeof sql>) => s.database.db.execute(q);
  await exec(sql`update admin_sessions set last_seen_at = now()`);
  await exec(sql`insert into admin_session_addresses (session_id, admin_id, ip) select id, admin_id, '192.0.2.250' from admin_sessions limit 1`);
  await exec(sql`insert into login_history (email, success, ip) values ('x@pitboss.test', false, '192.0.2.1')`);
  // An update that changes nothing, and a write rolled back, are no writes.
  await exec(sql`update faqs set sort_order = sort_order`);
  await s.database.db.transaction(async (tx) => {
    await tx.execute(sql`update faqs set sort_order = sort_order + 1`);
    tx.rollback();
  }).catch(() => undefined);
  expect(await writtenTables()).toEqual([]);
  await exec(sql`update faqs set sort_order = sort_order + 1`);
  await exec(sql`update admin_sessions set revoked_at = revoked_at`);
  expect(await writtenTables()).toEqual(['faqs']);
  await exec(sql`update faqs set sort_order = sort_order - 1`);
  await exec(sql`insert into tags (name, slug) values ('Write log check', 'write-log-check')`);
  await exec(sql`delete from tags where slug = 'write-log-check'`);
  expect(await writtenTables()).toEqual(['faqs', 'tags']);
  expect(await writtenTables()).toEqual([]);
}
