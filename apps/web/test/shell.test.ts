import { TOAST_ERROR_MS, TOAST_SUCCESS_MS, TOKEN_STORAGE_KEY } from '@pitboss/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadAdminDetail, privateLoader, publicOnlyLoader } from '../src/app/guards';
import { createStore } from '../src/lib/createStore';
import { getPath, issuesToErrors, setPath } from '../src/lib/form';
import { capitalise, toastOptions } from '../src/lib/toast';
import { authStore, resetAuth } from '../src/stores/auth';
import { clearDateFilters, dateFilterStore, setDateFilters } from '../src/stores/dateFilter';
import { installLocalStorage, json, mockFetch } from './helpers';

describe('toasts', () => {
  it('capitalise the first letter and last 2 s (success) or 4 s (error)', () => {
    expect(capitalise('password changed')).toBe('Password changed');
    expect(capitalise('')).toBe('');
    expect(toastOptions('success', 'saved')).toMatchObject({ message: 'Saved', autoClose: TOAST_SUCCESS_MS });
    expect(toastOptions('error', 'nope')).toMatchObject({ message: 'Nope', autoClose: TOAST_ERROR_MS });
  });
});

describe('stores', () => {
  it('notify subscribers with merged state', () => {
    const store = createStore({ a: 1, b: 'x' });
    const seen: number[] = [];
    const off = store.subscribe(() => seen.push(store.get().a));
    store.set({ a: 2 });
    store.set((s) => ({ a: s.a + 1 }));
    off();
    store.set({ a: 10 });
    expect(seen).toEqual([2, 3]);
    expect(store.get()).toEqual({ a: 10, b: 'x' });
  });

  it('keep the date filter as {isDate, filters}', () => {
    setDateFilters({ from: '2024-01-01', to: '' });
    expect(dateFilterStore.get()).toEqual({ isDate: true, filters: { from: '2024-01-01', to: '' } });
    clearDateFilters();
    expect(dateFilterStore.get()).toEqual({ isDate: false, filters: {} });
  });
});

describe('form helpers', () => {
  it('map schema issues and server errors to dotted field paths', () => {
    expect(issuesToErrors([{ path: ['socialLinks', 'twitter'], message: 'Bad URL' }, { path: ['socialLinks', 'twitter'], message: 'second' }, { path: [], message: 'Whole form' }])).toEqual({
      'socialLinks.twitter': 'Bad URL',
      _form: 'Whole form',
    });
    const v = setPath({ a: { b: 1, c: 2 } }, 'a.b', 5);
    expect(v).toEqual({ a: { b: 5, c: 2 } });
    expect(getPath(v, 'a.c')).toBe(2);
  });
});

describe('the navigation guard', () => {
  let storage: Map<string, string>;
  beforeEach(() => {
    storage = installLocalStorage();
    resetAuth();
  });
  afterEach(() => vi.unstubAllGlobals());

  const run = async (path: string) => {
    try {
      await privateLoader({ request: new Request(`http://app${path}`), params: {}, context: undefined } as never);
      return null;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown.headers.get('Location');
      throw thrown;
    }
  };

  it('sends a browser without a token to /login, and a signed-in one away from the public pages', async () => {
    expect(await run('/dashboard')).toBe('/login');
    storage.set(TOKEN_STORAGE_KEY, 't');
    let location: string | null = null;
    try {
      publicOnlyLoader();
    } catch (r) {
      location = (r as Response).headers.get('Location');
    }
    expect(location).toBe('/dashboard');
  });

  it("loads the admin once, allows what they may view and stores the page's access", async () => {
    storage.set(TOKEN_STORAGE_KEY, 't');
    const calls = mockFetch(() =>
      json(200, { success: true, message: 'OK', result: { _id: '7', name: 'Sub', email: 's@x.y', role: 'subadmin', restriction: [{ name: 'FAQ', canView: true, canEdit: false }] } }),
    );
    expect(await run('/faq')).toBeNull();
    expect(authStore.get()).toMatchObject({ isAuth: true, userId: '7', role: 'subadmin', currentPageAccess: { canView: true, canEdit: false } });
    expect(await run('/sub-admin')).toBe('/faq');
    expect(await run('/update-faq/3')).toBeNull();
    expect(await run('/profile')).toBeNull();
    expect(authStore.get().currentPageAccess).toEqual({ canView: true, canEdit: true, rights: [] });
    expect(calls.filter((c) => c.url.endsWith('/api/admin/getadmindetail'))).toHaveLength(1);
  });

  it("keeps the named rights of the page's restriction name in the page's access", async () => {
    storage.set(TOKEN_STORAGE_KEY, 't');
    mockFetch(() =>
      json(200, { success: true, message: 'OK', result: { _id: '8', name: 'Rev', email: 'r@x.y', role: 'subadmin', restriction: [{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }] } }),
    );
    expect(await run('/withdraw')).toBeNull();
    expect(authStore.get().currentPageAccess).toEqual({ canView: true, canEdit: false, rights: ['approve'] });
  });

  it('shares one getadmindetail call between concurrent navigations', async () => {
    storage.set(TOKEN_STORAGE_KEY, 't2');
    const calls = mockFetch(() => json(200, { success: true, message: 'OK', result: { _id: '1', name: 'S', email: 'a@b.c', role: 'superadmin', restriction: [] } }));
    await Promise.all([loadAdminDetail('t2'), loadAdminDetail('t2'), run('/site-setting')]);
    expect(calls).toHaveLength(1);
  });
});
