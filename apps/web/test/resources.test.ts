import { faqsResource, auditLogResource, depositsResource, faqUpdate, faqCreate, subModulesResource } from '@pitboss/contract';
import { describe, expect, it } from 'vitest';
import { exportQuery, listQuery, matchingQuery, readListState, writeListState } from '../src/resources/listState';
import { checkBody, emptyValues, requestBody } from '../src/resources/formValues';

describe('list state in the URL', () => {
  it('reads the API parameter names and writes them back, defaults left out', () => {
    const params = new URLSearchParams('q=cards&status=active,inactive&sortOrder_min=2&updatedAt_from=2026-01-01&sort=-question&page=3&limit=50');
    const state = readListState(faqsResource, params);
    expect(state).toMatchObject({ page: 3, limit: 50, sort: '-question', q: 'cards' });
    expect(state.filters).toEqual({ status: 'active,inactive', sortOrder_min: '2', updatedAt_from: '2026-01-01' });
    expect(writeListState(faqsResource, state).toString()).toBe('q=cards&status=active%2Cinactive&sortOrder_min=2&updatedAt_from=2026-01-01&sort=-question&limit=50&page=3');
    expect(writeListState(faqsResource, readListState(faqsResource, new URLSearchParams())).toString()).toBe('');
  });

  it('drops values the API would refuse, so a hand-edited link still works', () => {
    const state = readListState(faqsResource, new URLSearchParams('status=deleted,active&sort=password&page=-1&limit=9999&sortOrder_min=abc&updatedAt_to=tomorrow&cursor=x'));
    expect(state).toMatchObject({ page: 1, limit: 20, sort: faqsResource.defaultSort, cursor: '' });
    expect(state.filters).toEqual({ status: 'active' });
  });

  it('keeps a reference filter as the record\'s id in the link, and drops anything else', () => {
    expect(readListState(depositsResource, new URLSearchParams('userId=42')).filters).toEqual({ userId: '42' });
    expect(readListState(depositsResource, new URLSearchParams('userId=satoshi')).filters).toEqual({});
  });

  it('builds the list, export and "all matching" queries from one state', () => {
    const state = readListState(auditLogResource, new URLSearchParams('resource=faqs&cursor=abc&limit=50'));
    expect(listQuery(state)).toEqual({ resource: 'faqs', sort: '-createdAt', limit: '50', cursor: 'abc' });
    expect(exportQuery(state)).toEqual({ resource: 'faqs', sort: '-createdAt' });
    expect(matchingQuery(state)).toEqual({ resource: 'faqs' });
  });
});

describe('form bodies', () => {
  it('starts a required reference empty: the admin picks it', () => {
    expect(emptyValues(subModulesResource.form!).moduleId).toBe('');
  });

  const fields = faqsResource.form!;
  it('sends every field on create and only the changed ones on update', () => {
    const initial = { ...emptyValues(fields), question: 'Old question?', answer: 'A', category: 'Cards', sortOrder: 3, status: 'active' };
    const changed = { ...initial, question: 'New question?' };
    expect(requestBody(fields, 'update', changed, initial)).toEqual({ question: 'New question?' });
    expect(Object.keys(requestBody(fields, 'add', changed, initial)).sort()).toEqual(['answer', 'category', 'question', 'sortOrder', 'status']);
  });

  it('checks with the contract schema and maps errors to fields', () => {
    const bad = checkBody(faqCreate, fields, { question: 'x', answer: '' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(Object.keys(bad.errors).sort()).toEqual(['answer', 'question']);
    const ok = checkBody(faqUpdate, fields, { question: 'A fine question?' });
    expect(ok).toEqual({ ok: true, body: { question: 'A fine question?' } });
  });
});
