import type { ServerResponse } from 'node:http';
import type { MockScriptStep } from './mock-script.ts';

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Flush time before a scripted connection drop, so the client has received what was written. */
const CUT_FLUSH_MS = 20;

/**
 * Streams pre-formatted SSE frames. With a `stream-cut` step only the first `afterEvents`
 * frames (default: half) go out, then the connection is dropped, the response ended early,
 * or (`stall`) the response is held open in `hanging` until the client goes away.
 */
export function sendEventStream(
  response: ServerResponse,
  frames: readonly string[],
  cut: Extract<MockScriptStep, { kind: 'stream-cut' }> | undefined,
  hanging?: Set<ServerResponse>,
): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  if (!cut) {
    response.end(frames.join(''));
    return;
  }
  const count = Math.min(frames.length - 1, cut.afterEvents ?? Math.floor(frames.length / 2));
  response.write(frames.slice(0, Math.max(0, count)).join(''), () => {
    if (cut.mode === 'end') response.end();
    else if (cut.mode === 'stall' && hanging) {
      hanging.add(response);
      response.on('close', () => hanging.delete(response));
    } else setTimeout(() => response.destroy(), CUT_FLUSH_MS);
  });
}

/** Drops the connection without any answer (a cut on a non-streaming request). */
export function dropConnection(response: ServerResponse): void {
  response.destroy();
}

export const anthropicFrame = (data: { type: string; [key: string]: unknown }): string =>
  `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

export const dataFrame = (data: unknown): string =>
  `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
