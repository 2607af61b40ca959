/**
 * The `text/event-stream` format (server-sent events) on both sides: the server writes events with
 * `formatEvent`, the web (which reads the stream with `fetch`, so the session token travels in the
 * Authorization header and never in a URL) and the tests parse them with `EventStreamParser`.
 */

export interface StreamEvent {
  event: string;
  data: string;
  id?: string;
}

/** One event: `event:` line, one `data:` line per line of the payload, a blank line. */
export function formatEvent(event: string, data: string, id?: string): string {
  if (/[\r\n]/.test(event) || (id !== undefined && /[\r\n]/.test(id))) throw new Error('An event name or id has no line breaks');
  const lines = data.split(/\r\n|\r|\n/).map((l) => `data: ${l}`);
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\n${lines.join('\n')}\n\n`;
}

/** A comment line: keeps the connection busy through proxies, ignored by readers. */
export const EVENT_STREAM_PING = ': ping\n\n';

/** Feeds text chunks as they arrive (split anywhere); calls `onEvent` for each complete event. Comments are skipped. */
export class EventStreamParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | undefined;

  constructor(private readonly onEvent: (e: StreamEvent) => void) {}

  push(chunk: string): void {
    this.buffer += chunk;
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
      if (!m || (m[0] === '\r' && m.index === this.buffer.length - 1)) return;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length) this.onEvent({ event: this.event || 'message', data: this.data.join('\n'), ...(this.id === undefined ? {} : { id: this.id }) });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
  }
}
