import { describe, expect, it } from 'vitest';
import {
  availableActions, BULK_ACTION_MAX, bulkActionRequest, bulkActionsFor, deleteRefusal, RESOURCES, bulkActionBody, faqsResource, isIpOrCidr, isSolanaAddress, listQuerySchema, referenceProblems,
  reasonCoded, reasonCodes, reasonLabel, reasonOptions, referencesOf, resourceForPage, ROUTES, type ResourceSpec, usersResource,
} from '../src/index.js';
import { z } from 'zod';

describe('Solana address', () => {
  it('accepts base58 keys of exactly 32 bytes', () => {
    expect(isSolanaAddress('11111111111111111111111111111111')).toBe(true); // system program
    expect(isSolanaAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe(true);
    expect(isSolanaAddress('So11111111111111111111111111111111111111112')).toBe(true);
  });
  it('refuses other alphabets and lengths', () => {
    expect(isSolanaAddress('0OIl1111111111111111111111111111')).toBe(false);
    expect(isSolanaAddress('1111111111111111111111111111111')).toBe(false); // 31 bytes
    expect(isSolanaAddress('zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz')).toBe(false); // > 32 bytes
  });
});

describe('IP or CIDR', () => {
  it.each(['203.0.113.7', '198.51.100.0/24', '0.0.0.0/0', '2001:db8::/32', '::1', 'fe80::1', '::ffff:192.0.2.1', '2001:db8:0:0:0:0:0:1'])('accepts %s', (v) => {
    expect(isIpOrCidr(v)).toBe(true);
  });
  it.each(['256.1.1.1', '1.2.3', '1.2.3.4/33', '2001:db8::/129', 'abc', '1.2.3.4/24/1', '1::2::3', ''])('refuses %s', (v) => {
    expect(isIpOrCidr(v)).toBe(false);
  });
});

describe('list query', () => {
  const schema = listQuerySchema(faqsResource);
  it('parses typed filters and defaults', () => {
    const q = schema.parse({ status: 'active,inactive', sortOrder_min: '1', updatedAt_from: '2026-01-01', sort: '-question' });
    expect(q).toMatchObject({ page: 1, limit: 20, status: ['active', 'inactive'], sortOrder_min: '1', sort: '-question' });
  });
  it('refuses unknown sort columns, unknown filter values and unknown parameters', () => {
    expect(schema.safeParse({ sort: 'password' }).success).toBe(false);
    expect(schema.safeParse({ status: 'deleted' }).success).toBe(false);
    expect(schema.safeParse({ evil: '1' }).success).toBe(false);
    expect(schema.safeParse({ limit: '500' }).success).toBe(false);
  });
  it('bulk body needs ids or a query, and a status for status changes', () => {
    expect(bulkActionBody.safeParse({ action: 'delete', ids: ['1'] }).success).toBe(true);
    expect(bulkActionBody.safeParse({ action: 'delete' }).success).toBe(false);
    expect(bulkActionBody.safeParse({ action: 'status', ids: ['1'] }).success).toBe(false);
    expect(bulkActionBody.safeParse({ action: 'delete', query: { status: 'inactive' } }).success).toBe(true);
  });
});

describe('resource declarations', () => {
  it('point at pages of the route table with the same restriction name', () => {
    for (const spec of Object.values(RESOURCES)) {
      for (const page of Object.values(spec.pages)) {
        const route = ROUTES.find((r) => r.path === page);
        expect(route, page).toBeDefined();
        expect(route!.restriction ?? null, page).toBe(spec.restriction);
      }
      expect(resourceForPage(spec.pages.list)).toEqual({ spec, page: 'list' });
    }
  });

  it('name children that exist and take the parent id through one of their equals filters', () => {
    for (const spec of Object.values(RESOURCES)) {
      for (const child of spec.children ?? []) {
        const target = RESOURCES[child.resource];
        expect(target, `${spec.name} → ${child.resource}`).toBeDefined();
        expect(target!.filters.find((f) => f.key === child.filter)?.type, `${spec.name} → ${child.resource}.${child.filter}`).toBe('equals');
        if (child.parentKey) expect(spec.record?.shape, `${spec.name} → ${child.resource} takes ${child.parentKey}`).toHaveProperty(child.parentKey);
        for (const key of child.hideColumns ?? []) expect(target!.columns.map((c) => c.key), `${spec.name} → ${child.resource} hides ${key}`).toContain(key);
        for (const key of child.showColumns ?? []) expect(target!.columns.map((c) => c.key), `${spec.name} → ${child.resource} shows ${key}`).toContain(key);
      }
    }
  });

  it('show as figures only columns of their own', () => {
    for (const spec of Object.values(RESOURCES)) {
      for (const key of spec.figures ?? []) expect(spec.columns.map((c) => c.key), `${spec.name} figure ${key}`).toContain(key);
    }
  });

  it('declare actions with form fields from their input, and machines whose transitions name declared states', () => {
    for (const spec of Object.values(RESOURCES)) {
      for (const action of spec.actions ?? []) {
        for (const f of action.fields ?? []) expect(action.input?.shape, `${spec.name}.${action.name}.${f.key}`).toHaveProperty(f.key);
      }
      if (!spec.states) continue;
      const values = spec.states.states.map((x) => x.value);
      expect(values, spec.name).toContain(spec.states.initial);
      for (const [name, t] of Object.entries(spec.states.transitions as Record<string, { from: readonly string[]; to: string }>)) {
        for (const st of [...t.from, t.to]) expect(values, `${spec.name}.${name}`).toContain(st);
      }
    }
  });

  it('make fields editable only in states their machine declares', () => {
    for (const spec of Object.values(RESOURCES)) {
      for (const field of spec.form ?? []) {
        if (!field.editableIn) continue;
        expect(spec.states, `${spec.name}.${field.key}`).toBeDefined();
        for (const st of field.editableIn) expect(spec.states!.states.map((x) => x.value), `${spec.name}.${field.key}`).toContain(st);
      }
    }
  });

  it('declare the markets machine once: draft → open ⇄ halted → closed → resolved | voided, resolving under its own named right', () => {
    const markets = RESOURCES.markets!;
    const all = { canView: true, canEdit: true };
    const at = (status: string, proposalPending = false) => ({ status, proposalPending });
    expect(availableActions(markets, at('draft'), all).map((a) => a.name)).toEqual(['open']);
    expect(availableActions(markets, at('open'), all).map((a) => a.name)).toEqual(['halt', 'close']);
    expect(availableActions(markets, at('halted'), all).map((a) => a.name)).toEqual(['resume', 'close']);
    for (const st of ['closed', 'resolved', 'voided']) expect(availableActions(markets, at(st), all), st).toEqual([]);
    // Resolve: only from closed, only with the named right (edit is not enough).
    expect(availableActions(markets, at('closed'), { ...all, rights: ['resolve'] }).map((a) => a.name)).toEqual(['resolve']);
    expect(availableActions(markets, at('resolved'), { ...all, rights: ['resolve'] })).toEqual([]);
    expect(availableActions(markets, at('open'), { canView: true, canEdit: false })).toEqual([]);
    // A proposed resolution (two admins to resolve): confirm or reject it, not resolve again.
    expect(availableActions(markets, at('closed', true), { ...all, rights: ['resolve'] }).map((a) => a.name)).toEqual(['confirm', 'reject']);
    expect(availableActions(markets, at('closed', true), all)).toEqual([]);
    expect(Object.keys(markets.states!.transitions).sort()).toEqual(['close', 'halt', 'open', 'resolve', 'resume', 'void']);
    expect(markets.actions!.filter((a) => a.confirm).map((a) => a.name)).toEqual(['open', 'halt', 'close', 'resolve', 'confirm', 'reject']);
    expect(availableActions(RESOURCES.events!, { status: 'open' }, all).map((a) => a.name)).toEqual(['close']);
    // Only drafts can be deleted.
    expect(deleteRefusal(markets, { status: 'draft' })).toBeNull();
    expect(deleteRefusal(markets, { status: 'halted' })).toBe('Market is halted: only a draft market can be deleted');
    expect(deleteRefusal(RESOURCES.tags!, { status: 'active' })).toBeNull();
  });

  it('offers an action only from the states its transition starts from', () => {
    const withdrawals = RESOURCES.withdrawals!;
    const all = { canView: true, canEdit: true, rights: ['approve'] };
    expect(availableActions(withdrawals, { status: 'requested' }, all).map((a) => a.name)).toEqual(['approve', 'reject']);
    expect(availableActions(withdrawals, { status: 'approved' }, all).map((a) => a.name)).toEqual(['complete', 'fail']);
    expect(availableActions(withdrawals, { status: 'completed' }, all)).toEqual([]);
    // Actions that move no state (adjust-balance) are offered in every state.
    expect(availableActions(RESOURCES.users!, { status: 'blocked' }, { canView: true, canEdit: true, rights: ['adjust-balance'] }).map((a) => a.name)).toEqual(['unblock', 'adjust-balance']);
  });

  it('offer bulk forms of queue actions only, to the holders of the single action\'s right', () => {
    const bulk = (name: string) => (RESOURCES[name]!.actions ?? []).filter((a) => a.bulk).map((a) => a.name);
    expect(bulk('users')).toEqual(['block', 'unblock']);
    expect(bulk('deposits')).toEqual(['confirm', 'fail']);
    expect(bulk('withdrawals')).toEqual(['approve', 'reject', 'fail']);
    // One-off corrections and secrets never go in bulk.
    expect(bulk('sub-admins')).not.toContain('set-password');
    expect(bulk('users')).not.toContain('adjust-balance');
    expect(bulkActionsFor(RESOURCES.withdrawals!, { canView: true, canEdit: false, rights: ['approve'] }).map((a) => a.name)).toEqual(['approve', 'reject']);
    expect(bulkActionsFor(RESOURCES.withdrawals!, { canView: true, canEdit: true, rights: [] }).map((a) => a.name)).toEqual(['fail']);
    expect(bulkActionsFor(RESOURCES.withdrawals!, { canView: true, canEdit: false })).toEqual([]);
  });
});

describe('references', () => {
  it('every declared reference names a searchable resource and a field of its record', () => {
    for (const spec of Object.values(RESOURCES)) expect(referenceProblems(spec, RESOURCES), spec.name).toEqual([]);
    const targets = Object.values(RESOURCES).flatMap((spec) => referencesOf(spec).map((r) => `${spec.name} ${r.where} → ${r.reference.resource}.${r.reference.labelKey}`));
    expect(targets).toEqual(expect.arrayContaining([
      'sub-modules field "moduleId" → modules.name',
      'sub-modules filter "moduleId" → modules.name',
      'deposits filter "userId" → users.username',
      'withdrawals filter "userId" → users.username',
      'fiat-payments filter "userId" → users.username',
    ]));
  });

  it('finds a reference to an unknown resource, to a list without search, or showing a field the target lacks', () => {
    const probe = (reference: { resource: string; labelKey: string }): ResourceSpec => ({
      ...faqsResource, name: 'probes', filters: [{ key: 'ownerId', label: 'Owner', type: 'equals', reference }],
      form: [{ key: 'ownerId', label: 'Owner', type: 'reference', reference }],
    });
    expect(referenceProblems(probe({ resource: 'user', labelKey: 'username' }), RESOURCES)).toEqual([
      'field "ownerId" references the unknown resource "user"',
      'filter "ownerId" references the unknown resource "user"',
    ]);
    expect(referenceProblems(probe({ resource: 'users', labelKey: 'nickname' }), RESOURCES)).toEqual([
      'field "ownerId" shows "nickname", not a field of users',
      'filter "ownerId" shows "nickname", not a field of users',
    ]);
    // Deposits have no free-text search: nothing to type into.
    expect(referenceProblems(probe({ resource: 'deposits', labelKey: 'txSignature' }), RESOURCES)[0]).toBe('field "ownerId" references "deposits", whose list has no search to pick from');
    // Inherited names (`toString`) are not resources.
    expect(referenceProblems(probe({ resource: 'toString', labelKey: 'name' }), RESOURCES)[0]).toMatch(/unknown resource "toString"/);
  });

  it('filter by id only: a reference filter refuses anything but digits', () => {
    const schema = listQuerySchema(RESOURCES.deposits!);
    expect(schema.safeParse({ userId: '42' }).success).toBe(true);
    expect(schema.safeParse({ userId: 'satoshi' }).success).toBe(false);
  });
});

describe('bulk action body', () => {
  const withdrawals = RESOURCES.withdrawals!;
  const reject = bulkActionRequest(withdrawals.actions!.find((a) => a.name === 'reject')!);
  const approve = bulkActionRequest(withdrawals.actions!.find((a) => a.name === 'approve')!);

  it('takes ids or a list query, and the action\'s input', () => {
    expect(approve.safeParse({ ids: ['1', '2'] }).success).toBe(true);
    expect(approve.safeParse({ query: { status: 'requested' } }).success).toBe(true);
    expect(approve.safeParse({}).success).toBe(false);
    expect(approve.safeParse({ ids: ['1'], query: {} }).success).toBe(false);
    expect(approve.safeParse({ ids: ['1'], input: { reason: 'x' } }).success).toBe(false);
    expect(approve.safeParse({ ids: ['1'], action: 'approve' }).success).toBe(false);
    expect(reject.safeParse({ ids: ['1'], input: { reasonCode: 'destination_risk', reason: 'Sanctioned address' } }).success).toBe(true);
    expect(reject.safeParse({ ids: ['1'], input: { reasonCode: 'destination_risk' } }).success).toBe(true);
    expect(reject.safeParse({ ids: ['1'], input: { reason: 'Sanctioned address' } }).success).toBe(false);
    expect(reject.safeParse({ ids: ['1'] }).success).toBe(false);
    expect(reject.safeParse({ ids: ['1'], input: { reasonCode: 'other', reason: '' } }).success).toBe(false);
    expect(reject.safeParse({ ids: ['1'], input: { reasonCode: 'chain_error' } }).success).toBe(false);
  });

  it(`refuses more than ${BULK_ACTION_MAX} ids with the reason`, () => {
    const ids = Array.from({ length: BULK_ACTION_MAX + 1 }, (_, i) => String(i + 1));
    const res = approve.safeParse({ ids });
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]?.message).toBe('At most 1,000 records at once');
    expect(approve.safeParse({ ids: ids.slice(1) }).success).toBe(true);
  });
});

describe('availableActions', () => {
  it("offers an action with shownWhen only on records whose field holds its value (a user's house account actions)", () => {
    const access = { canView: true, canEdit: true, rights: ['adjust-balance'] };
    const names = (record: Record<string, unknown>) => availableActions(usersResource, record, access).map((a) => a.name);
    expect(names({ status: 'active', house: false })).toEqual(['block', 'adjust-balance', 'make-house']);
    expect(names({ status: 'blocked', house: true })).toEqual(['unblock', 'adjust-balance', 'make-customer']);
    // Without the named right neither shows.
    expect(availableActions(usersResource, { status: 'active', house: false }, { canView: true, canEdit: true }).map((a) => a.name)).toEqual(['block']);
  });
});

describe('reason codes', () => {
  const list = reasonCodes([{ code: 'duplicate', label: 'Duplicate request' }]);
  const { input, fields, reasons } = reasonCoded(list, { amount: z.string() });

  it('takes a code of the list and an optional note; "other" needs the note', () => {
    expect(reasons.map((r) => r.code)).toEqual(['duplicate', 'other']);
    expect(input.safeParse({ amount: '1', reasonCode: 'duplicate' }).success).toBe(true);
    expect(input.safeParse({ amount: '1', reasonCode: 'duplicate', reason: ' Same as #41 ' }).data).toEqual({ amount: '1', reasonCode: 'duplicate', reason: 'Same as #41' });
    const issues = (v: unknown) => input.safeParse(v).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues({ amount: '1' })).toEqual([['reasonCode', 'Pick a reason']]);
    expect(issues({ amount: '1', reasonCode: 'fraud' })).toEqual([['reasonCode', 'Pick a reason']]);
    expect(issues({ amount: '1', reasonCode: 'other', reason: ' ab ' })).toEqual([['reason', 'Say what happened (at least 3 characters)']]);
    expect(issues({ amount: '1', reasonCode: 'duplicate', reason: 'x'.repeat(501) })).toEqual([['reason', 'At most 500 characters']]);
    expect(issues({ amount: '1', reasonCode: 'duplicate', extra: 1 })?.[0]?.[0]).toBe('');
  });

  it('gives the form a select of the labels, then the note; filters and columns read the labels', () => {
    expect(fields.map((f) => [f.key, f.type])).toEqual([['reasonCode', 'select'], ['reason', 'textarea']]);
    expect(fields[0].options).toEqual([{ value: 'duplicate', label: 'Duplicate request' }, { value: 'other', label: 'Other (say what in the note)' }]);
    expect(reasonOptions(list, reasonCodes([{ code: 'expired', label: 'Expired' }])).map((o) => o.value)).toEqual(['duplicate', 'other', 'expired']);
    expect(reasonLabel([list], 'duplicate')).toBe('Duplicate request');
    expect(reasonLabel([list], 'gone')).toBe('gone');
    expect(reasonLabel([list], null)).toBeNull();
  });

  it('every action that refuses, undoes or stops money or trading declares its reason codes', () => {
    const coded = ['withdrawals/reject', 'withdrawals/fail', 'deposits/fail', 'fiat-payments/refund', 'markets/halt', 'users/adjust-balance'];
    for (const key of coded) {
      const [resource, name] = key.split('/');
      const action = RESOURCES[resource!]?.actions?.find((a) => a.name === name);
      expect(action?.reasons?.length, key).toBeGreaterThan(1);
      expect(action?.input?.shape, key).toHaveProperty('reasonCode');
      // The record carries the code, and a list filter offers every code of the resource's actions.
      const spec = RESOURCES[resource!]!;
      const filter = spec.filters.find((f) => f.key.toLowerCase().endsWith('reasoncode'));
      const offered = filter?.type === 'oneOf' ? filter.options.map((o) => o.value) : [];
      if (resource !== 'users') expect(offered, key).toEqual(expect.arrayContaining(action!.reasons!.map((r) => r.code)));
    }
  });
});

describe('moment columns', () => {
  it('name a date column and an actual field the record has', () => {
    for (const spec of Object.values(RESOURCES)) {
      for (const c of spec.columns) {
        if (!c.moment) continue;
        expect(c.type, `${spec.name}.${c.key}`).toBe('date');
        if (c.moment.actual) expect(spec.columns.map((x) => x.key), `${spec.name}.${c.key}`).toContain(c.moment.actual);
      }
    }
    expect(RESOURCES.markets!.columns.find((c) => c.key === 'closesAt')?.moment).toEqual({ future: 'Closes', past: 'Closed', actual: 'closedAt' });
  });
});
