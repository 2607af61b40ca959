import { fillPath, splitEndpointKey, type ApiKey } from '@pitboss/contract';
import { API_BASE_URL, apiHeaders, apiUrl, fallback, handleUnauthorized, readResponse, type ApiResponse, type ApiResultOf } from './api';

/**
 * Uploads and stored images: kept out of `api.ts` so they load with the pages that have an image
 * field or attachments, not with the sign-in page (its first-load budget).
 */

/** A stored image's address as the browser loads it: the API's own paths on the API's base address. */
export function imageSrc(url: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? `${API_BASE_URL}${url}` : url;
}

/** POSTs a multipart form (files in the part `file`; no Content-Type: the browser writes it with its boundary); never throws. */
async function sendFiles<T>(method: string, path: string, files: { blob: Blob; name: string }[], unreachable: string): Promise<ApiResponse<T>> {
  const body = new FormData();
  for (const f of files) body.append('file', f.blob, f.name);
  const headers = apiHeaders();
  const sentToken = 'Authorization' in headers;
  let res: Response;
  try {
    res = await fetch(apiUrl(path), { method, headers, body });
  } catch {
    return { ...fallback(0), message: unreachable } as ApiResponse<T>;
  }
  const answer = await readResponse<T>(res);
  handleUnauthorized(answer, sentToken);
  return answer;
}

/** Sends one file to an image upload endpoint (`POST <resource>/images`). */
export function uploadFile<T = unknown>(path: string, file: Blob, filename: string): Promise<ApiResponse<T>> {
  return sendFiles<T>('POST', path, [{ blob: file, name: filename }], 'The upload failed: check your connection and try again');
}

/** Sends files to a contract endpoint by its key (ticket attachments); the answer is the envelope. */
export function uploadFiles<K extends ApiKey>(key: K, params: Record<string, string>, files: File[]): Promise<ApiResponse<ApiResultOf<K>>> {
  const { method, path } = splitEndpointKey(key);
  return sendFiles<ApiResultOf<K>>(method, fillPath(path, params), files.map((f) => ({ blob: f, name: f.name })), 'The upload failed: check your connection and try again');
}
