import { faqsResource, marketsResource, savedViewLists, savedViewStateSchema, specForView } from '@pitboss/contract';
import { describe, expect, it } from 'vitest';
import { listKey, openSavedState, readListState, savedStateOf } from '../src/resources/listState';

describe('saved views on a list', () => {
  it('keeps the filters (not the fixed ones), sort, search and columns, and opens them back to the same list', () => {
    const state = readListState(faqsResource, new URLSearchParams('q=refund&status=active&category=Billing&sort=-question&page=3'));
    const saved = savedViewStateSchema.parse(savedStateOf(state, ['question', 'status'], { category: 'Billing' }));
    expect(saved).toEqual({ filters: { status: 'active' }, sort: '-question', q: 'refund', columns: ['question', 'status'] });
    const opened = openSavedState(faqsResource, saved);
    expect(opened.dropped).toEqual([]);
    expect(opened.columns).toEqual(['question', 'status']);
    // The first page, the same filters, sort and search.
    expect(opened.params.toString()).toBe('q=refund&status=active&sort=-question');
    expect(listKey(readListState(faqsResource, opened.params))).toBe(opened.key);
  });

  it('opens without, and names, a filter, value, sort or column the list no longer has', () => {
    const opened = openSavedState(faqsResource, {
      filters: { region: 'EU', status: 'retired', category: 'Orders', sortOrder_min: 'ten' },
      sort: '-rank',
      q: 'x',
      columns: ['question', 'legacyScore'],
    });
    expect(opened.dropped).toEqual(['filter "region"', 'filter value "status=retired"', 'filter value "sortOrder_min=ten"', 'sort "rank"', 'column "legacyScore"']);
    expect(opened.params.toString()).toBe('q=x&category=Orders');
    expect(opened.columns).toEqual(['question']);
    // Nothing left of the columns: the list's defaults.
    expect(openSavedState(faqsResource, { filters: {}, sort: '', q: '', columns: ['gone'] }).columns).toBeNull();
  });

  it('leaves a list view\'s fixed filters to its route', () => {
    const view = marketsResource.views?.find((v) => Object.keys(v.fixed).length > 0);
    expect(view).toBeDefined();
    const fixedKey = Object.keys(view!.fixed)[0]!;
    const opened = openSavedState(specForView(marketsResource, view!), { filters: { [fixedKey]: '999' }, sort: '', q: '', columns: null }, { [fixedKey]: '5' });
    expect(opened.dropped).toEqual([]);
    expect(opened.params.get(fixedKey)).toBeNull();
    expect(savedViewLists().get(view!.page)?.resource).toBe('markets');
  });
});
