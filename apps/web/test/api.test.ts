import { DEFAULT_ERROR_MESSAGE, TOKEN_STORAGE_KEY, UNAUTHORIZED_REDIRECT_DELAY_MS } from '@pitboss/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiCall, ApiError, apiRequest, downloadFile, filenameFromContentDisposition, readResponse } from '../src/lib/api';
import { registerSessionHandlers } from '../src/lib/session';
import { authStore, setAdmin } from '../src/stores/auth';
import { installLocalStorage, json, mockFetch } from './helpers';

let storage: Map<string, string>;
const navigations: string[] = [];

beforeEach(() => {
  storage = installLocalStorage();
  navigations.length = 0;
  registerSessionHandlers({ navigate: (to) => void navigations.push(to) });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const headerOf = (init: RequestInit, name: string) => new Headers(init.headers).get(name);

describe('the API client', () => {
  it('sends the bearer token and the browser time zone on every call', async () => {
    storage.set(TOKEN_STORAGE_KEY, 'tok-123');
    const calls = mockFetch(() => json(200, { success: true, message: 'OK', result: { a: 1 } }));
    const res = await apiRequest<{ a: number }>('GET', '/api/admin/profile', { query: { page: 2, q: '', x: undefined } });
    expect(res).toEqual({ success: true, message: 'OK', result: { a: 1 }, status: 200 });
    expect(calls[0]!.url).toBe('/api/admin/profile?page=2');
    expect(headerOf(calls[0]!.init, 'authorization')).toBe('Bearer tok-123');
    expect(headerOf(calls[0]!.init, 'timezone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('sends no Authorization header without a token, and JSON bodies as JSON', async () => {
    const calls = mockFetch(() => json(200, { success: true, message: 'OK' }));
    await apiRequest('POST', '/api/admin/login', { body: { email: 'a@b.c', password: 'x' } });
    expect(headerOf(calls[0]!.init, 'authorization')).toBeNull();
    expect(headerOf(calls[0]!.init, 'content-type')).toBe('application/json');
    expect(calls[0]!.init.body).toBe('{"email":"a@b.c","password":"x"}');
  });

  it("returns the server's error envelope, or the default message when there is none", async () => {
    await expect(readResponse(json(400, { success: false, message: 'Bad', errors: { email: 'Wrong' } }))).resolves.toEqual({
      success: false,
      message: 'Bad',
      errors: { email: 'Wrong' },
      status: 400,
    });
    await expect(readResponse(new Response('<html>oops</html>', { status: 502 }))).resolves.toEqual({ success: false, message: DEFAULT_ERROR_MESSAGE, status: 502 });
    mockFetch(() => Promise.reject(new TypeError('network down')));
    await expect(apiRequest('GET', '/api/x')).resolves.toEqual({ success: false, message: DEFAULT_ERROR_MESSAGE, status: 0 });
  });

  it('throws an ApiError with status and field errors from apiCall', async () => {
    mockFetch(() => json(403, { success: false, message: 'You do not have permission to do this' }));
    const err = await apiCall('GET', '/api/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(403);
    expect((err as ApiError).message).toBe('You do not have permission to do this');
  });

  it('ends the session on a 401: token removed, auth reset, one redirect to /login after 500 ms', async () => {
    vi.useFakeTimers();
    storage.set(TOKEN_STORAGE_KEY, 'tok');
    setAdmin({ _id: '1', name: 'A', email: 'a@b.c', role: 'superadmin', restriction: [] });
    mockFetch(() => json(401, { success: false, message: 'Your session has ended' }));
    await apiRequest('GET', '/api/a');
    storage.set(TOKEN_STORAGE_KEY, 'tok'); // a second call still carrying a token
    await apiRequest('GET', '/api/b');
    expect(storage.has(TOKEN_STORAGE_KEY)).toBe(false);
    expect(authStore.get()).toMatchObject({ isAuth: false, userId: null, role: null, restriction: [], admin: null });
    vi.advanceTimersByTime(UNAUTHORIZED_REDIRECT_DELAY_MS - 1);
    expect(navigations).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(navigations).toEqual(['/login']);
    vi.advanceTimersByTime(5000);
    expect(navigations).toEqual(['/login']);
  });

  it('treats a 401 to a call without a token (a wrong password) as a plain failure', async () => {
    vi.useFakeTimers();
    mockFetch(() => json(401, { success: false, message: 'Invalid email or password' }));
    const res = await apiRequest('POST', '/api/admin/login', { body: {} });
    expect(res.message).toBe('Invalid email or password');
    vi.advanceTimersByTime(2000);
    expect(navigations).toEqual([]);
  });
});

describe('CSV download', () => {
  it('reads the file name from Content-Disposition', () => {
    expect(filenameFromContentDisposition('attachment; filename="faq-2024.csv"', 'x.csv')).toBe('faq-2024.csv');
    expect(filenameFromContentDisposition("attachment; filename*=UTF-8''sub%20admins.csv", 'x.csv')).toBe('sub admins.csv');
    expect(filenameFromContentDisposition('attachment; filename=plain.csv', 'x.csv')).toBe('plain.csv');
    expect(filenameFromContentDisposition(null, 'x.csv')).toBe('x.csv');
  });

  it('streams the body with the same headers, reports progress and saves it under the server name', async () => {
    storage.set(TOKEN_STORAGE_KEY, 'tok');
    const clicked: { href: string; download: string }[] = [];
    vi.stubGlobal('document', {
      createElement: () => {
        const a = { href: '', download: '', style: {} as Record<string, string>, click: () => clicked.push({ href: a.href, download: a.download }), remove: () => {} };
        return a;
      },
      body: { append: () => {} },
    });
    const chunks = ['name,email\n', 'A,a@b.c\n', 'B,b@c.d\n'];
    const calls = mockFetch(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
              controller.close();
            },
          }),
          { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="faq.csv"' } },
        ),
    );
    const progress: number[] = [];
    const res = await downloadFile('/api/admin/faq/export', { query: { status: 'active' }, onProgress: (n) => progress.push(n) });
    expect(calls[0]!.url).toBe('/api/admin/faq/export?status=active');
    expect(headerOf(calls[0]!.init, 'authorization')).toBe('Bearer tok');
    expect(headerOf(calls[0]!.init, 'timezone')).toBeTruthy();
    expect(progress).toEqual([11, 19, 27]);
    expect(res).toMatchObject({ success: true, result: { filename: 'faq.csv', bytes: 27 } });
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('faq.csv');
    expect(clicked[0]!.href.startsWith('blob:')).toBe(true);
  });

  it("returns the server's error when the export fails", async () => {
    mockFetch(() => json(403, { success: false, message: 'You do not have permission to do this' }));
    await expect(downloadFile('/api/admin/faq/export')).resolves.toMatchObject({ success: false, status: 403 });
  });
});
