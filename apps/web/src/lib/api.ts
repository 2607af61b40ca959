import { DEFAULT_ERROR_MESSAGE, RIGHTS_HEADER, fillPath, splitEndpointKey, type ApiEnvelope, type ApiKey, type CallInput, type EndpointResult, type Endpoints } from '@pitboss/contract';
import { endSession, refreshRights } from './session';
import { toast } from './toast';
import { getToken } from './token';

/**
 * The one API client. Base address from `VITE_API_BASE_URL` (default: same
 * origin); every call carries `Authorization: Bearer <token>` (when one is
 * stored) and `timezone: <browser IANA zone>`; no timeout (seed §9: 0).
 */
export const API_BASE_URL: string = (import.meta.env?.VITE_API_BASE_URL ?? '').replace(/\/+$/, '');

/** The envelope plus the HTTP status (0 when the request never got an answer). */
export type ApiResponse<T> = ApiEnvelope<T> & { status: number };

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function apiUrl(path: string, query?: Query): string {
  const url = `${API_BASE_URL}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

export function apiHeaders(extra?: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { timezone: browserTimeZone(), ...extra };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

export function isEnvelope(value: unknown): value is ApiEnvelope {
  return typeof value === 'object' && value !== null && typeof (value as ApiEnvelope).success === 'boolean' && typeof (value as ApiEnvelope).message === 'string';
}

export const fallback = (status: number): ApiResponse<never> => ({ success: false, message: DEFAULT_ERROR_MESSAGE, status });

/**
 * The response helper (seed §7): the body on success; on error the server's
 * error body when it is an envelope, else `{success: false, message: 'Something went wrong'}`.
 */
export async function readResponse<T>(res: Response): Promise<ApiResponse<T>> {
  let body: unknown = null;
  try {
    const text = await res.text();
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (res.ok) {
    if (isEnvelope(body)) return { ...(body as ApiEnvelope<T>), status: res.status };
    return { success: true, message: '', result: body as T, status: res.status };
  }
  if (isEnvelope(body)) return { ...(body as ApiEnvelope<T>), success: false, status: res.status };
  return fallback(res.status);
}

/**
 * A 401 on a call that carried a token means the session is gone: one shared
 * handler clears it and goes to /login. (A 401 from the login form, sent
 * without a token, is just a wrong password.)
 */
export function handleUnauthorized(res: { status: number; message?: string; code?: string }, sentToken: boolean): void {
  if (!sentToken) return;
  // A refusal may mean the admin's rights changed since the tab loaded them.
  if (res.status === 403 && res.code !== 'BLOCKED_IP') refreshRights();
  if (res.status !== 401) return;
  if (endSession() && res.message) toast.error(res.message);
}

let knownRights: string | null = null;

/**
 * Every admin answer says which rights it was decided with: when they differ from the ones this
 * tab has seen (a right granted or taken away by another admin), re-read them now; the sidebar and
 * the route check follow.
 */
function noteRights(rights: string | null): void {
  if (!rights) return;
  if (knownRights !== null && knownRights !== rights) refreshRights(0);
  knownRights = rights;
}

/** Sends a request and never throws: the answer is always an envelope. */
export async function apiRequest<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const hasBody = options.body !== undefined;
  const headers = apiHeaders(hasBody ? { 'Content-Type': 'application/json' } : undefined);
  const sentToken = 'Authorization' in headers;
  let res: Response;
  try {
    res = await fetch(apiUrl(path, options.query), {
      method,
      headers,
      body: hasBody ? JSON.stringify(options.body) : null,
      signal: options.signal ?? null,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    return fallback(0);
  }
  const answer = await readResponse<T>(res);
  handleUnauthorized(answer, sentToken);
  if (sentToken) noteRights(res.headers.get(RIGHTS_HEADER));
  return answer;
}

/** A failed call as an exception (for TanStack Query): status, message and per-field errors. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: Record<string, string>;
  constructor(response: ApiResponse<unknown>) {
    super(response.message || DEFAULT_ERROR_MESSAGE);
    this.name = 'ApiError';
    this.status = response.status;
    this.errors = response.errors ?? {};
  }
}

/** The API said the record does not exist (404): nothing to retry. */
export const isNotFound = (err: unknown): boolean => err instanceof ApiError && err.status === 404;

/** Resolves to the whole envelope on success, throws `ApiError` otherwise. */
export async function apiCall<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const res = await apiRequest<T>(method, path, options);
  if (!res.success) throw new ApiError(res);
  return res;
}

/** Resolves to `result` on success, throws `ApiError` otherwise. */
export async function apiResult<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiCall<T>(method, path, options)).result as T;
}

/** The input of a call to the contract endpoint `K`: its params, query and body, typed from its declaration. */
export type ApiInput<K extends ApiKey> = CallInput<Endpoints[K]> & { signal?: AbortSignal };
export type ApiResultOf<K extends ApiKey> = EndpointResult<Endpoints[K]>;

/**
 * Calls a contract endpoint by its key (`'POST /api/admin/login'`): method, path and types all come
 * from the declaration in `@pitboss/contract`, so no endpoint is typed by hand here. Never throws:
 * the answer is the envelope.
 */
export function callApi<K extends ApiKey>(key: K, input: ApiInput<K>): Promise<ApiResponse<ApiResultOf<K>>> {
  const { method, path } = splitEndpointKey(key);
  const { params, query, body, signal } = input as { params?: Record<string, string>; query?: Query; body?: unknown; signal?: AbortSignal };
  return apiRequest<ApiResultOf<K>>(method, fillPath(path, params), { query, body: body ?? (method === 'GET' || method === 'DELETE' ? undefined : {}), signal });
}

/** The same, resolving to `result` and throwing `ApiError` on failure (for TanStack Query). */
export async function fetchApi<K extends ApiKey>(key: K, input: ApiInput<K>): Promise<ApiResultOf<K>> {
  const res = await callApi(key, input);
  if (!res.success) throw new ApiError(res);
  return res.result as ApiResultOf<K>;
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => apiResult<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown) => apiCall<T>('POST', path, { body: body ?? {} }),
  put: <T>(path: string, body?: unknown) => apiCall<T>('PUT', path, { body: body ?? {} }),
  patch: <T>(path: string, body?: unknown) => apiCall<T>('PATCH', path, { body: body ?? {} }),
  delete: <T>(path: string) => apiCall<T>('DELETE', path),
};

/** `attachment; filename*=UTF-8''a%20b.csv` or `filename="a.csv"` → the file name. */
export function filenameFromContentDisposition(header: string | null, fallbackName: string): string {
  if (!header) return fallbackName;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)?''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // malformed escape: fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = (plain?.[2] ?? plain?.[1] ?? '').trim();
  return name || fallbackName;
}

export interface DownloadOptions {
  query?: Query;
  /** Used when the answer has no Content-Disposition file name. */
  filename?: string;
  /** Bytes received so far, and the total when the server sent Content-Length. */
  onProgress?: (received: number, total: number | null) => void;
  signal?: AbortSignal;
}

/**
 * Downloads a file (CSV by default) with the same headers as every call:
 * streams the body into a Blob, reporting progress, then hands it to the
 * browser under the server's file name. Resolves to the envelope of the
 * outcome (`success: false` with the server's message when the call failed).
 */
export async function downloadFile(path: string, options: DownloadOptions = {}): Promise<ApiResponse<{ filename: string; bytes: number }>> {
  const headers = apiHeaders({ Accept: 'text/csv, */*' });
  const sentToken = 'Authorization' in headers;
  let res: Response;
  try {
    res = await fetch(apiUrl(path, options.query), { headers, signal: options.signal ?? null });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    return fallback(0);
  }
  if (!res.ok) {
    const answer = await readResponse<never>(res);
    handleUnauthorized(answer, sentToken);
    return answer;
  }
  const filename = filenameFromContentDisposition(res.headers.get('content-disposition'), options.filename ?? 'export.csv');
  const lengthHeader = res.headers.get('content-length');
  const total = lengthHeader && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
  const type = res.headers.get('content-type') ?? 'text/csv';
  const chunks: BlobPart[] = [];
  let received = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value as Uint8Array<ArrayBuffer>);
      received += value.byteLength;
      options.onProgress?.(received, total);
    }
  }
  saveBlob(new Blob(chunks, { type }), filename);
  return { success: true, message: 'Download ready', result: { filename, bytes: received }, status: res.status };
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}


/** Downloads the file a contract endpoint answers (an attachment), by its key. */
export function downloadEndpoint<K extends ApiKey>(key: K, params: Record<string, string>, options: DownloadOptions = {}) {
  const { path } = splitEndpointKey(key);
  return downloadFile(fillPath(path, params), options);
}
