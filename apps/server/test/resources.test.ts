import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, faqs } from '../src/db/schema.js';
import { toCell } from '../src/resources/csv.js';
import { queryRows } from '../src/db/client.js';
import { call, serverFile, type TestServer } from './helpers.js';

/** The resource mechanism, proven on FAQ (and the audit log for keyset pagination). */
let s: TestServer;
let token: string;
/** Every SQL statement the server sends, for the set-based bulk test. */
const statements: string[] = [];
serverFile((m) => ({ s, token } = m), {}, { onQuery: (q) => statements.push(q) });

const create = (body: Record<string, unknown>) => call(s, 'POST', '/api/admin/faqs', { token, body });
const list = (query: Record<string, string>) => call(s, 'GET', '/api/admin/faqs', { token, query });

describe('create, read, update, delete with audit', () => {
  it('creates with sanitised rich text and writes an audit entry in the same transaction', async () => {
    const res = await create({ question: 'How do deposits work?', answer: '<p>Send <strong>SOL</strong><script>alert(1)</script><img src=x onerror=alert(1)></p>', category: 'Payments' });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ _id: expect.any(String), question: 'How do deposits work?', status: 'active', sortOrder: 0 });
    expect(res.body.result.answer).toBe('<p>Send <strong>SOL</strong></p>');
    const [entry] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.resource, 'faqs'), eq(auditLog.recordId, res.body.result._id)));
    expect(entry).toMatchObject({ action: 'create', adminEmail: 'root@pitboss.test', before: null, after: expect.objectContaining({ question: 'How do deposits work?' }) });
  });

  it('refuses bad input with field errors and writes nothing', async () => {
    const before = (await s.database.db.select().from(faqs)).length;
    const auditsBefore = (await s.database.db.select().from(auditLog)).length;
    const res = await create({ question: 'x', answer: '', status: 'gone', sortOrder: -3 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['answer', 'question', 'sortOrder', 'status']);
    const scriptOnly = await create({ question: 'Only a script?', answer: '<script>x</script>' });
    expect(scriptOnly.status).toBe(400);
    expect(scriptOnly.body.errors.answer).toBeDefined();
    expect((await s.database.db.select().from(faqs)).length).toBe(before);
    expect((await s.database.db.select().from(auditLog)).length).toBe(auditsBefore);
  });

  it('updates with before/after in the audit log, reads by id, deletes, and 404s after', async () => {
    const { body } = await create({ question: 'Can I cancel an order?', answer: 'Yes.', sortOrder: 3 });
    const id = body.result._id;
    const upd = await call(s, 'PATCH', `/api/admin/faqs/${id}`, { token, body: { status: 'inactive', sortOrder: 4 } });
    expect(upd.body.result).toMatchObject({ status: 'inactive', sortOrder: 4, question: 'Can I cancel an order?' });
    const [entry] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'update'), eq(auditLog.recordId, id)));
    expect(entry!.before).toMatchObject({ status: 'active', sortOrder: 3 });
    expect(entry!.after).toMatchObject({ status: 'inactive', sortOrder: 4 });
    expect((await call(s, 'GET', `/api/admin/faqs/${id}`, { token })).body.result._id).toBe(id);
    expect((await call(s, 'PATCH', `/api/admin/faqs/${id}`, { token, body: { sortOrder: 'many' } })).status).toBe(400);
    expect((await call(s, 'DELETE', `/api/admin/faqs/${id}`, { token })).status).toBe(200);
    expect((await call(s, 'GET', `/api/admin/faqs/${id}`, { token })).status).toBe(404);
    expect((await call(s, 'GET', `/api/admin/faqs/abc`, { token })).status).toBe(400);
    const [del] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'delete'), eq(auditLog.recordId, id)));
    expect(del!.before).toMatchObject({ question: 'Can I cancel an order?' });
  });

  it('a PATCH changes only the fields it names (no defaults filled in)', async () => {
    const { body } = await create({ question: 'Which coins are supported?', answer: 'SOL and USDC.', category: 'Payments', sortOrder: 7, status: 'inactive' });
    const res = await call(s, 'PATCH', `/api/admin/faqs/${body.result._id}`, { token, body: { question: 'Which coins can I deposit?' } });
    expect(res.body.result).toMatchObject({ question: 'Which coins can I deposit?', category: 'Payments', sortOrder: 7, status: 'inactive', answer: 'SOL and USDC.' });
  });

  it('keeps the audit log append-only in the database itself', async () => {
    await expect(s.database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(s.database.db.execute(sql`update audit_log set action = 'x'`)).rejects.toThrow();
  });
});

describe('list: filters, search, sort, pagination', () => {
  beforeAll(async () => {
    await s.database.db.delete(faqs);
    for (let i = 1; i <= 30; i++) {
      await create({ question: `Question number ${i}`, answer: i % 3 === 0 ? 'About withdrawals' : 'About cards', category: i % 2 ? 'Odd' : 'Even', sortOrder: i, status: i % 5 === 0 ? 'inactive' : 'active' });
    }
  });

  it('pages with total', async () => {
    const res = await list({ page: '2', limit: '7', sort: 'sortOrder' });
    expect(res.body.result).toMatchObject({ total: 30, page: 2, limit: 7 });
    expect(res.body.result.items.map((i: { sortOrder: number }) => i.sortOrder)).toEqual([8, 9, 10, 11, 12, 13, 14]);
  });

  it('sorts both ways on allowed columns only', async () => {
    const desc = await list({ sort: '-sortOrder', limit: '3' });
    expect(desc.body.result.items.map((i: { sortOrder: number }) => i.sortOrder)).toEqual([30, 29, 28]);
    expect((await list({ sort: 'answer' })).status).toBe(400);
  });

  it('filters: equals, one of, range, date range; and free-text search', async () => {
    expect((await list({ category: 'Odd', limit: '100' })).body.result.total).toBe(15);
    expect((await list({ status: 'inactive' })).body.result.total).toBe(6);
    expect((await list({ status: 'active,inactive' })).body.result.total).toBe(30);
    expect((await list({ sortOrder_min: '10', sortOrder_max: '12' })).body.result.total).toBe(3);
    expect((await list({ q: 'withdrawals' })).body.result.total).toBe(10);
    expect((await list({ q: '100%' })).body.result.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list({ updatedAt_from: today, updatedAt_to: today })).body.result.total).toBe(30);
    expect((await list({ updatedAt_to: '2000-01-01' })).body.result.total).toBe(0);
    expect((await list({ updatedAt_from: 'yesterday' })).status).toBe(400);
    expect((await list({ status: 'deleted' })).status).toBe(400);
  });

  it('date ranges are days in the caller\'s time zone', async () => {
    // A record created at 23:30 UTC on 1 March is on 2 March in Tokyo.
    const { body } = await create({ question: 'Time zone check', answer: 'tz' });
    await s.database.db.execute(sql`update faqs set updated_at = '2026-03-01T23:30:00Z' where id = ${Number(body.result._id)}`);
    const utc = await call(s, 'GET', '/api/admin/faqs', { token, query: { updatedAt_from: '2026-03-01', updatedAt_to: '2026-03-01' }, headers: { timezone: 'UTC' } });
    const tokyo = await call(s, 'GET', '/api/admin/faqs', { token, query: { updatedAt_from: '2026-03-02', updatedAt_to: '2026-03-02' }, headers: { timezone: 'Asia/Tokyo' } });
    const tokyoFirst = await call(s, 'GET', '/api/admin/faqs', { token, query: { updatedAt_from: '2026-03-01', updatedAt_to: '2026-03-01' }, headers: { timezone: 'Asia/Tokyo' } });
    expect(utc.body.result.total).toBe(1);
    expect(tokyo.body.result.total).toBe(1);
    expect(tokyoFirst.body.result.total).toBe(0);
    await call(s, 'DELETE', `/api/admin/faqs/${body.result._id}`, { token });
  });

  it('walks thousands of rows sharing one timestamp by keyset and export, both directions, without gaps or repeats', async () => {
    await s.database.db.execute(sql`
      insert into audit_log (admin_email, action, resource, record_id, ip, created_at)
      select 'probe@pitboss.test', 'create', 'keyset-probe', g::text, '10.0.0.1', now() from generate_series(1, 6000) g`);
    for (const sort of ['-createdAt', 'createdAt']) {
      const seen: string[] = [];
      const forward: string[][] = [];
      let cursor: string | null | undefined;
      let back: string | null | undefined;
      let pages = 0;
      do {
        const res = await call(s, 'GET', '/api/admin/audit-log', { token, query: { limit: '200', sort, resource: 'keyset-probe', ...(cursor ? { cursor } : {}) } });
        const ids = res.body.result.items.map((i: { _id: string }) => i._id);
        seen.push(...ids);
        forward.push(ids);
        cursor = res.body.result.nextCursor;
        back = res.body.result.prevCursor;
        if (pages === 0) expect(back, 'no Previous on the first page').toBeNull();
      } while (cursor && ++pages < 100);
      expect(seen.length, sort).toBe(6000);
      expect(new Set(seen).size, sort).toBe(6000);
      // Previous from the last page walks the same pages back, each in the list's order.
      for (let page = forward.length - 2; page >= 0; page--) {
        const res = await call(s, 'GET', '/api/admin/audit-log', { token, query: { limit: '200', sort, resource: 'keyset-probe', before: back! } });
        expect(res.status).toBe(200);
        expect(res.body.result.items.map((i: { _id: string }) => i._id), `${sort} page ${page + 1}`).toEqual(forward[page]);
        expect(res.body.result.nextCursor, 'Next from a page reached by Previous').toBeTruthy();
        back = res.body.result.prevCursor;
      }
      expect(back, 'no Previous before the first page').toBeNull();
      expect((await call(s, 'GET', '/api/admin/audit-log', { token, query: { cursor: 'x', before: 'y' } })).status).toBe(400);
      const csv = await call(s, 'GET', '/api/admin/audit-log/export', { token, query: { sort, resource: 'keyset-probe' } });
      const recordIds = csv.raw.split('\r\n').filter(Boolean).slice(1).map((l) => l.split(',')[4]);
      expect(recordIds.length, sort).toBe(6000);
      expect(new Set(recordIds).size, sort).toBe(6000);
    }
    for (const bad of [{ a: 1 }, [1], true, 1e308].map((v) => Buffer.from(JSON.stringify([v, '1'])).toString('base64url'))) {
      expect((await call(s, 'GET', '/api/admin/audit-log', { token, query: { cursor: bad } })).status).toBe(400);
    }
    // A number past its column's type (price is an int4): the field is named, as for any bad cursor.
    for (const price of [2 ** 31, -(2 ** 40), 2 ** 53 - 1]) {
      const res = await call(s, 'GET', '/api/admin/orders', { token, query: { sort: 'price', cursor: Buffer.from(JSON.stringify([price, '1'])).toString('base64url') } });
      expect(res.status, String(price)).toBe(400);
      expect(res.body.errors, String(price)).toEqual({ cursor: 'Invalid cursor' });
    }
    expect((await call(s, 'GET', '/api/admin/orders', { token, query: { sort: 'price', cursor: Buffer.from(JSON.stringify([2 ** 31 - 1, '1'])).toString('base64url') } })).status).toBe(200);
    // A date past its month's end (Date.parse reads it as the next month's day; the database refuses it): the field is named.
    for (const day of ['2026-02-30T10:00:00.000Z', '2026-04-31T00:00:00Z']) {
      const res = await call(s, 'GET', '/api/admin/audit-log', { token, query: { cursor: Buffer.from(JSON.stringify([day, '1'])).toString('base64url') } });
      expect(res.status, day).toBe(400);
      expect(res.body.errors, day).toEqual({ cursor: 'Invalid cursor' });
    }
  });

  it('walks the audit log with a keyset cursor, without gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const res = await call(s, 'GET', '/api/admin/audit-log', { token, query: { limit: '7', resource: 'faqs', ...(cursor ? { cursor } : {}) } });
      expect(res.status).toBe(200);
      seen.push(...res.body.result.items.map((i: { _id: string }) => i._id));
      cursor = res.body.result.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    const [{ n }] = (await queryRows<{ n: number }>(s.database.db, sql`select count(*)::int as n from audit_log where resource = 'faqs'`)) as [{ n: number }];
    expect(seen.length).toBe(n);
    expect(new Set(seen).size).toBe(n);
    const ids = seen.map(Number);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect((await call(s, 'GET', '/api/admin/audit-log', { token, query: { cursor: 'garbage' } })).status).toBe(400);
  });
});

describe('bulk actions', () => {
  it('changes status of selected ids, and of all records matching a query', async () => {
    const all = (await list({ limit: '100', sort: 'sortOrder' })).body.result.items as { _id: string; sortOrder: number }[];
    const picked = all.slice(0, 3).map((i) => i._id);
    const res = await call(s, 'POST', '/api/admin/faqs/bulk', { token, body: { action: 'status', status: 'inactive', ids: picked } });
    expect(res.body.result.affected).toBe(3);
    const matching = await call(s, 'POST', '/api/admin/faqs/bulk', { token, body: { action: 'status', status: 'active', query: { category: 'Even' } } });
    expect(matching.body.result.affected).toBe(15);
    expect((await list({ category: 'Even', status: 'inactive' })).body.result.total).toBe(0);
    expect((await call(s, 'POST', '/api/admin/faqs/bulk', { token, body: { action: 'status', status: 'archived', ids: picked } })).status).toBe(400);
  });

  it('selects "all matching" through the declared SELECT: a reference filter (the module) works', async () => {
    const mod = await call(s, 'POST', '/api/admin/modules', { token, body: { name: 'Bulk Probe Module' } });
    expect(mod.status).toBe(200);
    const moved: { _id: string; moduleId: string }[] = [];
    for (const name of ['Series', 'Events']) {
      const [sm] = (await call(s, 'GET', '/api/admin/sub-modules', { token, query: { q: name } })).body.result.items.filter((i: { name: string }) => i.name === name);
      moved.push(sm);
      expect((await call(s, 'PATCH', `/api/admin/sub-modules/${sm._id}`, { token, body: { moduleId: mod.body.result._id } })).status).toBe(200);
    }
    const res = await call(s, 'POST', '/api/admin/sub-modules/bulk', { token, body: { action: 'status', status: 'inactive', query: { moduleId: mod.body.result._id } } });
    expect(res.status).toBe(200);
    expect(res.body.result.affected).toBe(2);
    const listed = await call(s, 'GET', '/api/admin/sub-modules', { token, query: { moduleId: mod.body.result._id } });
    expect(listed.body.result.items.map((i: { status: string }) => i.status)).toEqual(['inactive', 'inactive']);
    const audit = await s.database.db.select().from(auditLog).where(eq(auditLog.resource, 'sub-modules'));
    const entry = audit.find((e) => e.action === 'update' && e.recordId === listed.body.result.items[0]._id && (e.after as { status?: string })?.status === 'inactive');
    expect(entry).toMatchObject({ actorKind: 'admin', before: { status: 'active', moduleName: 'Bulk Probe Module' }, after: { status: 'inactive' } });
    for (const sm of moved) {
      expect((await call(s, 'PATCH', `/api/admin/sub-modules/${sm._id}`, { token, body: { moduleId: sm.moduleId, status: 'active' } })).status).toBe(200);
    }
    expect((await call(s, 'DELETE', `/api/admin/modules/${mod.body.result._id}`, { token })).status).toBe(200);
  });

  it('refuses ids that are not records of the resource, changing nothing', async () => {
    const all = (await list({ limit: '2' })).body.result.items as { _id: string; status: string }[];
    const res = await call(s, 'POST', '/api/admin/faqs/bulk', { token, body: { action: 'status', status: 'inactive', ids: [all[0]!._id, '999999999'] } });
    expect(res.status).toBe(404);
    expect((await call(s, 'GET', `/api/admin/faqs/${all[0]!._id}`, { token })).body.result.status).toBe(all[0]!.status);
  });

  it('works set-based: the same few statements for 2 000 rows as for 2', async () => {
    await s.database.db.insert(faqs).values(Array.from({ length: 2000 }, (_, i) => ({ question: `Bulk set ${i}`, answer: 'a', category: 'BulkSet', sortOrder: i })));
    statements.length = 0;
    const res = await call(s, 'POST', '/api/admin/faqs/bulk', { token, body: { action: 'status', status: 'inactive', query: { category: 'BulkSet' } } });
    expect(res.body.result.affected).toBe(2000);
    // Session check and touch (its address's last use too), the targets' SELECT, one UPDATE, one audit INSERT (and the transaction's own statements).
    expect(statements.filter((q) => /^\s*(update|insert|delete)/i.test(q) && !/admin_session(s|_addresses)/.test(q))).toHaveLength(2);
    expect(statements.length).toBeLessThan(10);
    const audited = await s.database.db.select().from(auditLog).where(sql`${auditLog.resource} = 'faqs' and ${auditLog.action} = 'update' and ${auditLog.after}->>'category' = 'BulkSet'`);
    expect(audited).toHaveLength(2000);
    expect((await list({ category: 'BulkSet', status: 'active' })).body.result.total).toBe(0);
    const del = await call(s, 'POST', '/api/admin/faqs/bulk', { token, body: { action: 'delete', query: { category: 'BulkSet' } } });
    expect(del.body.result.affected).toBe(2000);
    expect((await list({ category: 'BulkSet' })).body.result.total).toBe(0);
  });

  it('deletes all matching in one transaction, with an audit entry each', async () => {
    const before = (await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'delete'))).length;
    const res = await call(s, 'POST', '/api/admin/faqs/bulk', { token, body: { action: 'delete', query: { q: 'withdrawals' } } });
    expect(res.body.result.affected).toBe(10);
    expect((await list({ q: 'withdrawals' })).body.result.total).toBe(0);
    expect((await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'delete'))).length).toBe(before + 10);
  });
});

describe('CSV export', () => {
  it('streams every matching row (more than a page), RFC 4180 quoted, with the formula guard and dates in the caller\'s zone', async () => {
    await s.database.db.delete(faqs);
    const rows = Array.from({ length: 6500 }, (_, i) => ({
      question: i === 0 ? '=HYPERLINK("http://evil")' : i === 1 ? 'Comma, "quote"\nand line' : i === 2 ? '+1+2' : i === 3 ? '@SUM(A1)' : `Row ${i}`,
      answer: 'a', category: i === 4 ? '-danger' : 'General', sortOrder: i,
      updatedAt: new Date('2026-06-30T22:30:00Z'),
    }));
    // More rows than one export batch (5000), all with the same timestamp: the batches must continue by id.
    for (let i = 0; i < rows.length; i += 500) await s.database.db.insert(faqs).values(rows.slice(i, i + 500));
    const res = await call(s, 'GET', '/api/admin/faqs/export', { token, query: { sort: 'sortOrder' }, headers: { timezone: 'Europe/Paris' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="faqs-\d{4}-\d{2}-\d{2}\.csv"/);
    const text = res.raw.replace(/^\ufeff/, '');
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('Question,Category,Order,Status,Updated');
    // With TAB and CR guarded too.
    expect(toCell('\tcmd')).toBe("'\tcmd");
    expect(lines[1]).toBe(`"'=HYPERLINK(""http://evil"")",General,0,active,2026-07-01T00:30:00+02:00`);
    expect(text).toContain('"Comma, ""quote""\nand line"');
    expect(text).toContain(`'+1+2,`);
    expect(text).toContain(`'@SUM(A1),`);
    expect(text).toContain(`,'-danger,`);
    // 6500 data rows (the embedded line break is a bare LF inside quotes, records end in CRLF).
    expect(lines.length).toBe(1 + 6500);
    expect(new Set(lines).size).toBe(lines.length);
    const filtered = await call(s, 'GET', '/api/admin/faqs/export', { token, query: { sortOrder_min: '4000' } });
    expect(filtered.raw.split('\r\n').filter(Boolean).length).toBe(1 + 2500);
  });
});
