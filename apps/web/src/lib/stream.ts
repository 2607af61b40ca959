import { DEFAULT_ERROR_MESSAGE, EventStreamParser, fillPath, splitEndpointKey, type ApiKey } from '@pitboss/contract';
import { apiHeaders, apiUrl, handleUnauthorized, readResponse, type ApiInput, type ApiResponse, type Query } from './api';

// Server-sent events: kept out of `api.ts` so they load with the pages that stream (the layout's
// bell, the market overview), not with the sign-in page (its first-load budget).

export interface StreamHandlers {
  /** Each event as it arrives (name and raw data). */
  onEvent(event: string, data: string): void;
  /** `live` once the stream is open; `reconnecting` after it dropped (it retries by itself); `refused` for good (its answer's message). */
  onStatus?(status: 'connecting' | 'live' | 'reconnecting' | 'refused', message?: string): void;
}

/**
 * Reads a server-sent-events endpoint (`text/event-stream`) by its contract key with `fetch`, not
 * `EventSource`: the session token goes in the Authorization header like every call, never in the
 * URL (where logs, proxies and the history would keep it). Reconnects by itself with a growing
 * delay (1 s … 30 s) after a drop; a refusal (401, 403, 4xx) stops it: a 401 signs out as any call
 * does. Returns the function that closes it.
 */
export function openStream<K extends ApiKey>(key: K, input: Omit<ApiInput<K>, 'signal'>, handlers: StreamHandlers): () => void {
  const { path } = splitEndpointKey(key);
  const { params, query } = input as { params?: Record<string, string>; query?: Query };
  const url = apiUrl(fillPath(path, params), query);
  const ctrl = new AbortController();
  let delay = 1_000;
  const run = async (): Promise<void> => {
    while (!ctrl.signal.aborted) {
      handlers.onStatus?.('connecting');
      const headers = apiHeaders({ Accept: 'text/event-stream' });
      const sentToken = 'Authorization' in headers;
      let refused: ApiResponse<never> | null = null;
      try {
        const res = await fetch(url, { headers, signal: ctrl.signal, cache: 'no-store' });
        if (!res.ok || !res.body) {
          const answer = await readResponse<never>(res);
          handleUnauthorized(answer, sentToken);
          if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) refused = answer;
        } else {
          handlers.onStatus?.('live');
          delay = 1_000;
          let ended: { status: number; reason: string } | null = null;
          const parser = new EventStreamParser((e) => {
            if (e.event === 'end') {
              try {
                ended = JSON.parse(e.data) as { status: number; reason: string };
              } catch {
                ended = { status: 503, reason: DEFAULT_ERROR_MESSAGE };
              }
            }
            handlers.onEvent(e.event, e.data);
          });
          const reader = res.body.getReader();
          const decoder = new TextDecoder();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            parser.push(decoder.decode(value, { stream: true }));
          }
          const end = ended as { status: number; reason: string } | null;
          if (end && (end.status === 401 || end.status === 403)) {
            handleUnauthorized({ status: end.status, message: end.reason }, sentToken);
            refused = { success: false, message: end.reason, status: end.status };
          }
        }
      } catch {
        // The network dropped (or the server went away): retried below, unless closed.
        if (ctrl.signal.aborted) return;
      }
      if (ctrl.signal.aborted) return;
      if (refused) {
        handlers.onStatus?.('refused', refused.message || DEFAULT_ERROR_MESSAGE);
        return;
      }
      handlers.onStatus?.('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 30_000);
    }
  };
  void run();
  return () => ctrl.abort();
}
