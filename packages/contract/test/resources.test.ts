import { describe, expect, it } from 'vitest';
import { availableActions, deleteRefusal, RESOURCES, bulkActionBody, faqsResource, isIpOrCidr, isSolanaAddress, listQuerySchema, resourceForPage, ROUTES } from '../src/index.js';

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
      }
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

  it('declare the markets machine once: draft → open ⇄ halted → closed → resolved | voided, settlement moves without admin actions', () => {
    const markets = RESOURCES.markets!;
    const all = { canView: true, canEdit: true };
    expect(availableActions(markets, { status: 'draft' }, all).map((a) => a.name)).toEqual(['open']);
    expect(availableActions(markets, { status: 'open' }, all).map((a) => a.name)).toEqual(['halt', 'close']);
    expect(availableActions(markets, { status: 'halted' }, all).map((a) => a.name)).toEqual(['resume', 'close']);
    for (const st of ['closed', 'resolved', 'voided']) expect(availableActions(markets, { status: st }, all), st).toEqual([]);
    expect(availableActions(markets, { status: 'open' }, { canView: true, canEdit: false })).toEqual([]);
    expect(Object.keys(markets.states!.transitions).sort()).toEqual(['close', 'halt', 'open', 'resolve', 'resume', 'void']);
    expect(markets.actions!.filter((a) => a.confirm).map((a) => a.name)).toEqual(['open', 'halt', 'close']);
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
});
