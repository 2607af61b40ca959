import { fieldApplies, rewardCardCreate, rewardCardsResource, boosterPacksResource, boosterPackSettingsResource, boosterPackUpdate, singleFields, updateBoosterPackSettingsBody, faqsResource, auditLogResource, depositsResource, faqUpdate, faqCreate, eventsResource, eventCreate, marketsResource, offlineStoreCreate, offlineStoresResource, subModulesResource, usersResource } from '@pitboss/contract';
import { describe, expect, it } from 'vitest';
import { addFromParentLink, exportQuery, listQuery, matchingQuery, readListState, writeListState } from '../src/resources/listState';
import { checkBody, clearedValue, emptyValues, fromLocalInput, requestBody, toLocalInput, valuesFromRecord } from '../src/resources/formValues';
// The modules' own field types (the packs' odds), as the app registers them at start.
import '../src/modules/extensions';

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
  it("starts a store's country (a required country select) empty and sends the code picked", () => {
    const fields = offlineStoresResource.form!;
    const empty = emptyValues(fields);
    expect(empty.country).toBe('');
    expect(empty.status).toBe('active');
    const values = { ...empty, name: 'Le Comptoir', address: '1 rue de Rivoli', city: 'Paris', country: 'FR', latitude: '48.86', longitude: '2.35', contact: 'contact@comptoir.example' };
    const body = requestBody(fields, 'add', values, empty);
    expect(body.country).toBe('FR');
    expect(checkBody(offlineStoreCreate, fields, body)).toMatchObject({ ok: true, body: { country: 'FR' } });
    expect(valuesFromRecord(fields, { ...values, _id: '1' }).country).toBe('FR');
  });

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

describe('date-time and multi-select fields (events)', () => {
  const fields = eventsResource.form!;
  const record = {
    _id: '7', ticker: 'KXBTCW-26NOV28', title: 'Bitcoin on Nov 28', seriesId: null, description: '', imageUrl: '',
    openTime: '2026-11-21T22:00:00.000Z', closeTime: '2026-11-28T22:00:00.000Z', expectedResolutionTime: '2026-11-28T23:00:00.000Z',
    tagIds: ['3', '1'], tags: ['Bitcoin', 'Crypto'], status: 'open',
  };

  it('shows instants as local input values and sends them back as the same instants', () => {
    const local = toLocalInput(record.openTime);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(fromLocalInput(local)).toBe(record.openTime);
    expect(toLocalInput(null)).toBe('');
    expect(fromLocalInput('')).toBe('');
    expect(fromLocalInput('tomorrow')).toBe('tomorrow');
  });

  it('sends only what changed: a moved time as an ISO instant, tags compared as a set', () => {
    const initial = valuesFromRecord(fields, record);
    expect(initial.tagIds).toEqual(['3', '1']);
    expect(initial.seriesId).toBe('');
    expect(requestBody(fields, 'update', { ...initial, tagIds: ['1', '3'] }, initial)).toEqual({});
    const moved = { ...initial, closeTime: toLocalInput('2026-11-29T22:00:00.000Z'), tagIds: ['1'] };
    expect(requestBody(fields, 'update', moved, initial)).toEqual({ closeTime: '2026-11-29T22:00:00.000Z', tagIds: ['1'] });
  });

  it('checks the order of the times on the create form as the API does', () => {
    const body = requestBody(fields, 'add', { ...emptyValues(fields), ticker: 'KXTEST', title: 'A test event', openTime: toLocalInput(record.closeTime), closeTime: toLocalInput(record.openTime), expectedResolutionTime: toLocalInput(record.expectedResolutionTime) }, emptyValues(fields));
    const checked = checkBody(eventCreate, fields, body);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.errors).toEqual({ closeTime: 'The close time must be after the open time' });
  });
});

describe('adding from a parent\'s tab', () => {
  it('links to the child\'s add page with the parent chosen and the way back, when the child\'s form has that field', () => {
    expect(addFromParentLink(marketsResource, { eventId: '7' }, '/update-event/7?tab=child:markets')).toBe('/add-market?eventId=7&back=%2Fupdate-event%2F7%3Ftab%3Dchild%3Amarkets');
    expect(addFromParentLink(marketsResource, { eventId: '7' }, undefined)).toBeNull();
    // Deposits have no add page; a child without a form field for its parent gets no button.
    expect(addFromParentLink(usersResource, { status: 'active' }, '/x')).toBeNull();
  });
});

describe('clearing an optional number or choice', () => {
  const fields = boosterPacksResource.form!;
  it('sends null for a pack\'s emptied cards per pack (back to the settings\' size), not nothing', () => {
    const initial = valuesFromRecord(fields, { name: 'Genesis', imageUrl: '', coinId: '1', price: '500', cardsPerPack: 3, oddsOverride: null, supply: 10 });
    const body = requestBody(fields, 'update', { ...initial, cardsPerPack: '' }, initial);
    expect(checkBody(boosterPackUpdate, fields, body)).toEqual({ ok: true, body: { cardsPerPack: null } });
    // Untouched, it is not sent; on create, an empty size is simply not given.
    expect(requestBody(fields, 'update', initial, initial)).toEqual({});
    expect('cardsPerPack' in requestBody(fields, 'add', { ...initial, cardsPerPack: '' }, initial)).toBe(false);
  });

  it('still refuses an emptied required number, and leaves out an empty text the schema refuses', () => {
    const initial = valuesFromRecord(fields, { name: 'Genesis', imageUrl: '', coinId: '1', price: '500', cardsPerPack: 3, oddsOverride: null, supply: 10 });
    const body = requestBody(fields, 'update', { ...initial, supply: '' }, initial);
    expect(checkBody(boosterPackUpdate, fields, body).ok).toBe(false);
  });

  it('clears the settings\' guaranteed tier to null (no guarantee)', () => {
    const field = singleFields(boosterPackSettingsResource).find((f) => f.key === 'guaranteedTierId')!;
    expect(clearedValue(field, '')).toBeNull();
    expect(clearedValue(field, '3')).toBe('3');
    expect(updateBoosterPackSettingsBody.safeParse({ guaranteedTierId: clearedValue(field, '') }).success).toBe(true);
    const required = singleFields(boosterPackSettingsResource).find((f) => f.key === 'cardsPerPack')!;
    expect(clearedValue(required, '')).toBe('');
  });
});

describe('fields shown only when they apply (visibleWhen)', () => {
  const fields = rewardCardsResource.form!;
  const shown = (values: Record<string, unknown>) => fields.filter((f) => fieldApplies(f, values)).map((f) => f.key);
  it('shows the reward card\'s parameters of the chosen condition and reward only', () => {
    expect(shown({ condition: 'packs_opened', rewardKind: 'card' })).not.toEqual(expect.arrayContaining(['periodDays']));
    const packs = shown({ condition: 'packs_opened', rewardKind: 'card' });
    for (const k of ['periodDays', 'conditionCoinId', 'rewardCoinId', 'rewardAmount']) expect(packs).not.toContain(k);
    expect(packs).toContain('rewardCharacterId');
    const volume = shown({ condition: 'trading_volume', rewardKind: 'coin' });
    for (const k of ['periodDays', 'rewardCoinId', 'rewardAmount']) expect(volume).toContain(k);
    for (const k of ['conditionCoinId', 'rewardCharacterId']) expect(volume).not.toContain(k);
    expect(shown({ condition: 'total_deposits', rewardKind: 'coin' })).toContain('conditionCoinId');
  });

  it('sends null for what does not apply, and the create schema does not ask for it', () => {
    const values = { ...emptyValues(fields), name: 'Opener', condition: 'packs_opened', threshold: '5', rewardKind: 'coin', rewardCoinId: '1', rewardAmount: '200', supply: 10, periodDays: 7, rewardCharacterId: '9' };
    const body = requestBody(fields, 'add', values, emptyValues(fields));
    expect(body).toMatchObject({ periodDays: null, conditionCoinId: null, rewardCharacterId: null, rewardCoinId: '1', rewardAmount: '200' });
    expect(checkBody(rewardCardCreate, fields, body).ok).toBe(true);
    // On an update, a hidden field that held a value is cleared; one that held none is not sent.
    const initial = { ...values, condition: 'trading_volume', periodDays: 7, rewardCharacterId: '' };
    expect(requestBody(fields, 'update', { ...initial, condition: 'packs_opened' }, initial)).toEqual({ condition: 'packs_opened', periodDays: null });
  });
});

describe('column choices', () => {
  it('are kept per resource and per arrangement of it: a view or a tab that shows other columns keeps its own, the list its old key', async () => {
    const { columnsStorageKey } = await import('../src/resources/hooks/useColumnVisibility');
    const { specForView } = await import('@pitboss/contract');
    expect(columnsStorageKey(marketsResource)).toBe('pitboss.columns.markets');
    const unresolved = specForView(marketsResource, marketsResource.views!.find((v) => v.page === '/unresolved-markets')!);
    const resolve = specForView(marketsResource, marketsResource.views!.find((v) => v.page === '/event-resolution/{id}')!);
    expect(columnsStorageKey(unresolved)).not.toBe(columnsStorageKey(marketsResource));
    expect(columnsStorageKey(resolve)).not.toBe(columnsStorageKey(unresolved));
    // A user's tab of their deposits leaves out the user: its own choices too.
    const tab = { ...depositsResource, columns: depositsResource.columns.filter((c) => c.key !== 'username') };
    expect(columnsStorageKey(tab)).not.toBe(columnsStorageKey(depositsResource));
    expect(columnsStorageKey(depositsResource)).toBe('pitboss.columns.deposits');
  });
});
