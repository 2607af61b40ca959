import { resourceBase, type BulkActionRequest, type BulkActionResult, type BulkPreview, type Choice, type ListResult, type RecordOf, type ResourceSpec } from '@pitboss/contract';
import { api, apiRequest, apiResult, downloadFile, type ApiResponse, type Query } from '../lib/api';

/** A record as the API returns it: string `_id` plus the declared fields. */
export type ResourceRecord = { _id: string } & Record<string, unknown>;

/** A resource's endpoints, as the contract derives them from its declaration (`resourceEndpoints`). */
export const resourcePath = (name: string, suffix = ''): string => `${resourceBase(name)}${suffix}`;

/** Query keys: everything about one resource sits under `['resources', name]`, so one invalidation refreshes it all. */
export const resourceKeys = {
  all: (name: string) => ['resources', name] as const,
  list: (name: string, query: Record<string, string>) => ['resources', name, 'list', query] as const,
  record: (name: string, id: string) => ['resources', name, 'record', id] as const,
  options: (name: string) => ['resources', name, 'options'] as const,
};

/** A declaration as the calls read it: its name, and its record schema for the records' type. */
type Declared = Pick<ResourceSpec, 'name' | 'record'>;

/** One page of a resource's list, its records typed from the declaration (`RecordOf`). */
export function fetchList<S extends Declared>(spec: S, query: Query, signal?: AbortSignal): Promise<ListResult<RecordOf<S>>> {
  return api.get<ListResult<RecordOf<S>>>(resourcePath(spec.name), query, signal);
}

/** A reference input's choices from its own endpoint (`choicesPath`): a search, or the labels of some ids. */
export function fetchChoices(path: string, query: { q?: string; ids?: string }, signal?: AbortSignal): Promise<{ items: Choice[] }> {
  return api.get<{ items: Choice[] }>(path, query, signal);
}

/** One record, typed from the declaration (`RecordOf`). */
export function fetchRecord<S extends Declared>(spec: S, id: string, signal?: AbortSignal): Promise<RecordOf<S>> {
  return api.get<RecordOf<S>>(resourcePath(spec.name, `/${encodeURIComponent(id)}`), undefined, signal);
}

/**
 * Writes never throw: the caller reads the envelope (field errors, 403
 * message, `code: 'CONFIRM_REQUIRED'`) and decides what to show.
 */
export type WriteResponse<T = unknown> = ApiResponse<T> & { code?: string };

export function createRecord(spec: Pick<ResourceSpec, 'name'>, body: unknown): Promise<WriteResponse<ResourceRecord>> {
  return apiRequest<ResourceRecord>('POST', resourcePath(spec.name), { body });
}

export function updateRecord(spec: Pick<ResourceSpec, 'name'>, id: string, body: unknown): Promise<WriteResponse<ResourceRecord>> {
  return apiRequest<ResourceRecord>('PATCH', resourcePath(spec.name, `/${encodeURIComponent(id)}`), { body });
}

export function deleteRecord(spec: Pick<ResourceSpec, 'name'>, id: string): Promise<WriteResponse> {
  return apiRequest('DELETE', resourcePath(spec.name, `/${encodeURIComponent(id)}`));
}

export type BulkRequest =
  | { action: 'delete' | 'status'; status?: string; ids: string[] }
  | { action: 'delete' | 'status'; status?: string; query: Record<string, string> };

export function bulkAction(spec: Pick<ResourceSpec, 'name'>, body: BulkRequest): Promise<WriteResponse<{ affected: number }>> {
  return apiRequest<{ affected: number }>('POST', resourcePath(spec.name, '/bulk'), { body });
}

/** A declared action over the selected records (or all matching): the summary of what was done and skipped. */
export function bulkRunAction(spec: Pick<ResourceSpec, 'name'>, action: string, body: BulkActionRequest): Promise<WriteResponse<BulkActionResult>> {
  return apiRequest<BulkActionResult>('POST', resourcePath(spec.name, `/bulk/${encodeURIComponent(action)}`), { body });
}

/** What a bulk action would act on: count, total per coin, largest (before it runs). */
export function bulkPreviewAction(spec: Pick<ResourceSpec, 'name'>, action: string, body: { ids: string[] } | { query: Record<string, string> }, signal?: AbortSignal): Promise<BulkPreview> {
  return apiResult<BulkPreview>('POST', resourcePath(spec.name, `/bulk/${encodeURIComponent(action)}/preview`), { body, signal });
}

export function postAction(path: string, body: unknown = {}): Promise<WriteResponse> {
  return apiRequest('POST', path, { body });
}

export function exportCsv(spec: Pick<ResourceSpec, 'name'>, query: Query, onProgress: (bytes: number) => void) {
  return downloadFile(resourcePath(spec.name, '/export'), { query, filename: `${spec.name}.csv`, onProgress: (received) => onProgress(received) });
}
