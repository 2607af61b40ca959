import { common, defineStates, type ResourceSpec } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../src/app.js';
import { auditLog, faqs } from '../src/db/schema.js';
import { defineResource, isoOrNull, type ResourceDef } from '../src/resources/define.js';
import { registerResource } from '../src/resources/register.js';
import { defineSubject, recordView, transition } from '../src/resources/transition.js';
import { call, makeSubAdmin, startTestServer, superLogin, type TestServer } from './helpers.js';

/**
 * The action mechanism on a probe resource over the FAQ table: a state machine (active ⇄ inactive),
 * an edit-level action with an input, and one that needs the named right `approve` of `Withdraw`.
 */
const probeSpec: ResourceSpec = {
  name: 'action-probes', label: 'Probe', plural: 'Probes', restriction: 'Withdraw', pages: { list: '/action-probes' }, titleField: 'question',
  columns: [{ key: 'question', label: 'Question', type: 'text', sortable: true }, common.statusColumn],
  filters: [], defaultSort: 'question', readOnly: true,
  states: defineStates({
    noun: 'Probe',
    states: [{ value: 'active', label: 'Active', color: 'green' }, { value: 'inactive', label: 'Inactive', color: 'gray' }],
    initial: 'active',
    transitions: { block: { from: ['active'], to: 'inactive' }, approve: { from: ['inactive'], to: 'active' } },
  }),
  actions: [
    { name: 'block', label: 'Block', right: 'edit', input: z.object({ reason: z.string().trim().min(3, 'Give a reason') }).strict(), fields: [{ key: 'reason', label: 'Reason', type: 'textarea' }] },
    { name: 'approve', label: 'Approve', right: { named: 'approve' }, confirm: 'Approve it?', bulk: true },
  ],
};

/** The probe's moves, as a service makes them: through `transition` (lock, machine, update, audit with the actor). */
const probeSubject = defineSubject({ resource: 'action-probes', table: faqs, machine: probeSpec.states!, view: recordView(() => probeDef()) });

const probeDef = (): ResourceDef => defineResource({
  spec: probeSpec, table: faqs, idColumn: faqs.id, columns: { question: faqs.question, status: faqs.status },
  toRecord: (r) => ({ _id: String(r.id), question: r.question, status: r.status, updatedAt: isoOrNull(r.updatedAt) }),
  actions: {
    block: async (tx, actor, record, input) => {
      await transition(tx, actor, probeSubject, Number(record._id), 'block', { set: { category: String(input.reason).slice(0, 60) }, audit: { input } });
      return 'Blocked';
    },
    approve: async (tx, actor, record) => {
      await transition(tx, actor, probeSubject, Number(record._id), 'approve');
    },
  },
});

let s: TestServer;
let probe: BuiltApp;
let superToken: string;
let id: string;
beforeAll(async () => {
  s = await startTestServer();
  superToken = await superLogin(s);
  probe = await buildApp({ config: s.config, db: s.database.db, mailer: s.mailer }, { logger: false, extend: (app, ctx) => registerResource(app, ctx, probeDef()) });
  await probe.app.ready();
  const [row] = await s.database.db.insert(faqs).values({ question: 'Probe one', answer: 'a', status: 'active' }).returning();
  id = String(row!.id);
});
afterAll(async () => {
  await probe?.app.close();
  await s?.close();
});

const on = (server: BuiltApp) => ({ ...s, app: server.app }) as TestServer;

describe('declared actions', () => {
  it('registers a route per action with its right: edit, or the named right alone', () => {
    const routes = probe.routes.filter((r) => r.url.startsWith('/api/admin/action-probes/:id/'));
    expect(routes.map((r) => [r.url, r.access])).toEqual([
      ['/api/admin/action-probes/:id/block', { kind: 'module', restriction: 'Withdraw', access: 'write' }],
      ['/api/admin/action-probes/:id/approve', { kind: 'module', restriction: 'Withdraw', access: 'write', right: 'approve' }],
    ]);
  });

  it('gives a bulk form only to actions that declare one, with the single action\'s access', () => {
    const routes = probe.routes.filter((r) => r.url.startsWith('/api/admin/action-probes/bulk/'));
    // The bulk form and its preview (what it would act on), under the same access.
    expect(routes.map((r) => [r.method, r.url, r.access])).toEqual([
      ['POST', '/api/admin/action-probes/bulk/approve/preview', { kind: 'module', restriction: 'Withdraw', access: 'write', right: 'approve' }],
      ['POST', '/api/admin/action-probes/bulk/approve', { kind: 'module', restriction: 'Withdraw', access: 'write', right: 'approve' }],
    ]);
  });

  it('refuses an action from a wrong state with 409, validates its input, and audits what it did', async () => {
    const server = on(probe);
    const early = await call(server, 'POST', `/api/admin/action-probes/${id}/approve`, { token: superToken });
    expect(early.status).toBe(409);
    // The message comes from the declared machine, the same one the services check.
    expect(early.body).toMatchObject({ code: 'INVALID_STATE', message: 'Probe is already active' });
    const bad = await call(server, 'POST', `/api/admin/action-probes/${id}/block`, { token: superToken, body: { reason: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.reason).toBe('Give a reason');
    const done = await call(server, 'POST', `/api/admin/action-probes/${id}/block`, { token: superToken, body: { reason: 'Outdated' } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ message: 'Blocked', result: { _id: id, status: 'inactive' } });
    const again = await call(server, 'POST', `/api/admin/action-probes/${id}/block`, { token: superToken, body: { reason: 'Outdated' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'INVALID_STATE' });
    expect(again.body.message).toBe('Probe is already inactive');
    const [entry] = await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'block'));
    expect(entry).toMatchObject({ resource: 'action-probes', recordId: id, before: { status: 'active' }, after: { status: 'inactive', input: { reason: 'Outdated' } } });
  });

  it('a move its handler made without transition() (unaudited, unchecked) is a server error, and nothing of it stays', async () => {
    const rawSpec: ResourceSpec = { ...probeSpec, name: 'raw-probes', pages: { list: '/raw-probes' } };
    const raw = await buildApp({ config: s.config, db: s.database.db, mailer: s.mailer }, {
      logger: false,
      extend: (app, ctx) => registerResource(app, ctx, {
        ...probeDef(), spec: rawSpec,
        actions: {
          block: async (tx, _actor, record) => {
            await tx.update(faqs).set({ status: 'inactive' }).where(eq(faqs.id, Number(record._id)));
          },
          approve: async () => undefined,
        },
      }),
    });
    await raw.app.ready();
    try {
      const [row] = await s.database.db.insert(faqs).values({ question: 'Raw probe', answer: 'a', status: 'active' }).returning();
      const res = await call(on(raw), 'POST', `/api/admin/raw-probes/${row!.id}/block`, { token: superToken, body: { reason: 'Unchecked' } });
      expect(res.status).toBe(500);
      const [after] = await s.database.db.select().from(faqs).where(eq(faqs.id, row!.id));
      expect(after!.status).toBe('active');
      expect(await s.database.db.select().from(auditLog).where(eq(auditLog.resource, 'raw-probes'))).toEqual([]);
    } finally {
      await raw.app.close();
    }
  });

  it('needs the named right for a named action: edit alone is not enough, the right alone is', async () => {
    const server = on(probe);
    const editor = await makeSubAdmin(s, [{ name: 'Withdraw', canView: true, canEdit: true }], superToken);
    const approver = await makeSubAdmin(s, [{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] } as never], superToken);
    expect((await call(server, 'POST', `/api/admin/action-probes/${id}/approve`, { token: editor.token })).status).toBe(403);
    expect((await call(server, 'POST', `/api/admin/action-probes/${id}/block`, { token: approver.token, body: { reason: 'Nope' } })).status).toBe(403);
    const approved = await call(server, 'POST', `/api/admin/action-probes/${id}/approve`, { token: approver.token });
    expect(approved.status).toBe(200);
    expect(approved.body.result.status).toBe('active');
  });

  it('refuses a right that is not declared for the name', async () => {
    const res = await call(s, 'POST', '/api/admin/sub-admins', {
      token: superToken, body: { name: 'Odd Rights', email: 'odd@pitboss.test', password: 'Odd-Rights-Lantern-8', restriction: [{ name: 'FAQ', canView: true, canEdit: false, rights: ['approve'] }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors['restriction.0.rights']).toBeDefined();
  });

  it('a declaration the server cannot serve fails at start', async () => {
    const ctx = { config: s.config, db: s.database.db, mailer: s.mailer };
    const broken = (change: Partial<ResourceDef>) => buildApp(ctx, { logger: false, extend: (app, c) => registerResource(app, c, { ...probeDef(), ...change }) });
    await expect(broken({ actions: { block: async () => undefined } })).rejects.toThrow(/action "approve" has no handler/);
    await expect(broken({ spec: { ...probeSpec, actions: [{ name: 'approve', label: 'A', right: { named: 'nope' } }] } })).rejects.toThrow(/unknown right "nope"/);
    await expect(broken({ spec: { ...probeSpec, defaultSort: 'nothing' } })).rejects.toThrow(/default sort/);
    // A reference names a resource this server serves (here: none but the probe itself), whose list is searchable.
    const reference = { resource: 'users', labelKey: 'username' };
    await expect(broken({ spec: { ...probeSpec, filters: [{ key: 'question', label: 'Owner', type: 'equals', reference }] } })).rejects.toThrow(/filter "question" references the unknown resource "users"/);
    await expect(broken({ spec: { ...probeSpec, filters: [{ key: 'question', label: 'Same', type: 'equals', reference: { resource: 'action-probes', labelKey: 'question' } }] } })).rejects.toThrow(
      /references "action-probes", whose list has no search/,
    );
  });
});
