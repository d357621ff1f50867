/**
 * An incremental parser of `text/event-stream` text, fed in arbitrary pieces (network chunks
 * split lines anywhere). Follows the WHATWG event-stream rules that matter for LLM APIs:
 * `event:` and `data:` fields, multi-line data joined with `\n`, `:` comment lines, a blank
 * line dispatching the event, CRLF/LF/CR line ends.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export interface ServerSentEvent {
  /** The `event:` field; absent for plain `data:` events (OpenAI). */
  readonly event?: string;
  readonly data: string;
}

export interface ServerSentEventParser {
  /** Feeds decoded text; returns the events completed by it. */
  push(text: string): ServerSentEvent[];
  /** Ends the stream; returns an event left without its blank line, if any. */
  end(): ServerSentEvent[];
}

export function createServerSentEventParser(): ServerSentEventParser {
  let buffer = '';
  let eventName: string | undefined;
  let dataLines: string[] = [];

  const dispatch = (events: ServerSentEvent[]): void => {
    if (dataLines.length > 0)
      events.push({ ...(eventName !== undefined ? { event: eventName } : {}), data: dataLines.join('\n') });
    eventName = undefined;
    dataLines = [];
  };

  const processLine = (line: string, events: ServerSentEvent[]): void => {
    if (line === '') return dispatch(events);
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') dataLines.push(value);
    else if (field === 'event') eventName = value;
  };

  return {
    push(text) {
      buffer += text;
      const events: ServerSentEvent[] = [];
      const lineEnd = /\r\n|\n|\r/g;
      let start = 0;
      let match: RegExpExecArray | null;
      while ((match = lineEnd.exec(buffer)) !== null) {
        // A lone CR at the very end may be the first half of a CRLF still in flight.
        if (match[0] === '\r' && match.index === buffer.length - 1) break;
        processLine(buffer.slice(start, match.index), events);
        start = match.index + match[0].length;
      }
      buffer = buffer.slice(start);
      return events;
    },
    end() {
      const events: ServerSentEvent[] = [];
      if (buffer !== '') processLine(buffer.replace(/\r$/, ''), events);
      buffer = '';
      dispatch(events);
      return events;
    },
  };
}
