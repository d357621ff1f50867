/**
 * The text block the summariser reads (Hermes `_serialize_for_summary`): one labelled entry
 * per message, joined by blank lines. Everything is redacted first; long bodies keep their
 * head and tail. Vectors: conformance/hermes/summary_serialization.json.
 */
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import { pythonRepr, pythonStr } from '../tokens/python-repr.ts';
import { pythonLengthExceeds, pythonSlice } from '../tokens/python-length.ts';
import { joinAsRope } from '../shared/join-as-rope.ts';
import { createSecretFindings, screenTexts } from './could-contain-secret.ts';
import {
  COMPACTION_REDACTION,
  redactScreenedText,
  redactSensitiveText,
  type RedactOptions,
} from './redact-sensitive-text.ts';
import { stripThinkBlocks } from './strip-think-blocks.ts';

/** Per-message body limits: the summariser's own window is the budget here. */
export const SUMMARY_CONTENT_MAX_CHARS = 6000;
export const SUMMARY_CONTENT_HEAD_CHARS = 4000;
export const SUMMARY_CONTENT_TAIL_CHARS = 1500;
export const SUMMARY_TOOL_ARGS_MAX_CHARS = 1500;
export const SUMMARY_TOOL_ARGS_HEAD_CHARS = 1200;

const IMAGE_PART_TYPES = new Set(['image', 'image_url', 'input_image']);
/** MEDIA delivery directives would be re-emitted as live directives if a summary kept them. */
const MEDIA_DIRECTIVE_RE = /MEDIA:\S+/g;

function truncateBody(content: string): string {
  if (!pythonLengthExceeds(content, SUMMARY_CONTENT_MAX_CHARS)) {
    return content;
  }
  return (
    pythonSlice(content, 0, SUMMARY_CONTENT_HEAD_CHARS) +
    '\n...[truncated]...\n' +
    pythonSlice(content, -SUMMARY_CONTENT_TAIL_CHARS)
  );
}

/** An image part as a short label: a reusable http(s) URL survives, a data URL does not. */
export function imagePartLabel(part: Record<string, unknown>): string {
  const imageUrl = part.image_url;
  let url = '';
  if (imageUrl && typeof imageUrl === 'object' && !Array.isArray(imageUrl)) {
    const nested = (imageUrl as { url?: unknown }).url;
    url = nested ? pythonStr(nested) : '';
  } else if (typeof imageUrl === 'string') url = imageUrl;
  else if (typeof part.url === 'string') url = part.url;
  return url.startsWith('http://') || url.startsWith('https://') ? `[image: ${url}]` : '[image]';
}

/** 2026-07 flattens part lists to text; unknown parts leave a `[type]` marker behind. */
function flattenParts(parts: readonly unknown[]): string {
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') texts.push(part);
    else if (part && typeof part === 'object' && !Array.isArray(part)) {
      const record = part as Record<string, unknown>;
      const type = record.type;
      if (type === 'text') texts.push(typeof record.text === 'string' ? record.text : '');
      else if (typeof type === 'string' && IMAGE_PART_TYPES.has(type)) texts.push(imagePartLabel(record));
      else texts.push(`[${type ? pythonStr(type) : 'attachment'}]`);
    }
  }
  return texts.join('\n');
}

/**
 * What a message's body is before redaction: 2026-04 handed the raw value to the redactor (which
 * renders non-strings with `str()`); 2026-07 flattens part lists to text first.
 */
function bodySource(message: Message, preset: Preset): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (preset.summary.serialization === 'raw') {
    return content === null || content === undefined ? '' : pythonRepr(content);
  }
  if (Array.isArray(content)) return flattenParts(content);
  return content === null || content === undefined ? '' : pythonRepr(content);
}

/** The redacted body as the summariser reads it (before the head-and-tail cut). */
function finishBody(redacted: string, message: Message, preset: Preset): string {
  if (preset.summary.serialization === 'raw') return redacted;
  let text = redacted;
  // A plain substring check first: the regex pass is only needed when a directive is present.
  if (text.includes('MEDIA:')) text = text.replace(MEDIA_DIRECTIVE_RE, '[media attachment]');
  if (message.role === 'assistant' && text) text = stripThinkBlocks(text);
  return text;
}

/** How a preset redacts: 2026-04's lenient mode, or the strict compaction mode. */
const redactionFor = (preset: Preset): RedactOptions =>
  preset.summary.serialization === 'raw' ? {} : COMPACTION_REDACTION;

interface CallSource {
  readonly name: string;
  /** The arguments before redaction; null for a malformed call (`?(...)`). */
  readonly args: string | null;
}

/** Each tool call's name and arguments as the serialiser reads them. */
function callSources(message: Message): CallSource[] {
  const sources: CallSource[] = [];
  const calls = message.tool_calls ?? [];
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    if (!call || typeof call !== 'object' || Array.isArray(call)) {
      sources.push({ name: '?', args: null });
      continue;
    }
    const fn = (call.function ?? {}) as { name?: unknown; arguments?: unknown };
    const { name, arguments: args } = fn;
    // Strings as they are, without a call: a compaction lists thousands of calls, most before
    // the engine has optimised this.
    sources.push({
      name: typeof name === 'string' ? name : name === undefined ? '?' : pythonStr(name),
      args: typeof args === 'string' ? args : args === undefined ? '' : pythonStr(args),
    });
  }
  return sources;
}

/** `  name(args)` of a call, its redacted arguments cut to their head when long; null: malformed. */
function toolCallLine(name: string, redactedArgs: string | null): string {
  if (redactedArgs === null) return '  ?(...)';
  let args = redactedArgs;
  if (pythonLengthExceeds(args, SUMMARY_TOOL_ARGS_MAX_CHARS)) {
    args = pythonSlice(args, 0, SUMMARY_TOOL_ARGS_HEAD_CHARS) + '...';
  }
  return `  ${name}(${args})`;
}

/**
 * The texts of one message that are redacted before the summariser reads them, in the one order
 * the screen and the redaction both use: the body first, then the arguments of each listed call
 * that has them (a malformed call shows as `?(...)` and has none).
 */
function redactedTexts(body: string, calls: readonly CallSource[] | null, into: string[]): void {
  into.push(body);
  if (calls === null) return;
  for (let i = 0; i < calls.length; i++) {
    const args = calls[i]!.args;
    if (args !== null) into.push(args);
  }
}

/** An assistant's calls as the serialiser lists them; null when it lists none. */
function listedCalls(message: Message): CallSource[] | null {
  return message.role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0
    ? callSources(message)
    : null;
}

/**
 * One message as the summariser sees it, from its redacted texts (`texts[first]` is the body,
 * the calls' arguments follow in `redactedTexts` order).
 */
function assembleMessage(
  message: Message,
  preset: Preset,
  calls: readonly CallSource[] | null,
  texts: readonly string[],
  first: number,
): string {
  const role = typeof message.role === 'string' ? message.role : 'unknown';
  const body = finishBody(texts[first]!, message, preset);
  // No longer than the limit in UTF-16 units, so not in code points either: no call needed.
  let content = body.length > SUMMARY_CONTENT_MAX_CHARS ? truncateBody(body) : body;
  if (role === 'tool') {
    const callId = message.tool_call_id;
    const id = typeof callId === 'string' ? callId : callId === undefined ? '' : pythonStr(callId);
    return `[TOOL RESULT ${id}]: ${content}`;
  }
  if (role === 'assistant') {
    if (calls !== null && calls.length > 0) {
      const lines: string[] = [];
      let next = first + 1;
      for (let i = 0; i < calls.length; i++) {
        const call = calls[i]!;
        lines.push(toolCallLine(call.name, call.args === null ? null : texts[next++]!));
      }
      content += '\n[Tool calls:\n' + lines.join('\n') + '\n]';
    }
    return `[ASSISTANT]: ${content}`;
  }
  return `[${role.toUpperCase()}]: ${content}`;
}

/** One message as the summariser sees it. */
export function serializeMessageForSummary(message: Message, preset: Preset): string {
  const calls = listedCalls(message);
  const texts: string[] = [];
  redactedTexts(bodySource(message, preset), calls, texts);
  const redaction = redactionFor(preset);
  return assembleMessage(
    message,
    preset,
    calls,
    texts.map((text) => redactSensitiveText(text, redaction)),
    0,
  );
}

/**
 * Each message as the summariser reads it, by message identity, under one preset: messages are
 * immutable, so a transcript's compactions (and the strategies compared on it) serialise and
 * redact each message once.
 */
export type SummaryTextCache = WeakMap<Message, string>;

/**
 * The whole block of turns for the summariser prompt. The texts of the messages not serialised
 * before are gathered into one list and screened for secrets together (`screenTexts`: a few
 * scans of many texts each instead of one call per text); only the texts the screen flags go
 * through the redactor, in place, starting from the patterns the screen found possible in each
 * and the `=` of its possible assignments (a flagged text is not scanned again before its first
 * pass). A compaction serialises thousands of messages once each, so
 * this stays one flat pass with no per-message copies. The block comes back as a rope of the
 * messages' texts (`joinAsRope`): its megabytes are copied into one string only when something
 * reads it whole (a summariser call, the assessment's token count), not by every compaction.
 */
export function serializeForSummary(
  turns: readonly Message[],
  preset: Preset,
  cache?: SummaryTextCache,
): string {
  const parts = new Array<string>(turns.length);
  const pending: number[] = [];
  const pendingCalls: (CallSource[] | null)[] = [];
  // Where each pending message's texts start in `texts`.
  const firsts: number[] = [];
  const texts: string[] = [];
  for (let i = 0; i < turns.length; i++) {
    const message = turns[i]!;
    const cached = cache?.get(message);
    if (cached !== undefined) {
      parts[i] = cached;
      continue;
    }
    const calls = listedCalls(message);
    pending.push(i);
    pendingCalls.push(calls);
    firsts.push(texts.length);
    redactedTexts(bodySource(message, preset), calls, texts);
  }
  if (pending.length === 0) return joinAsRope(parts, '\n\n');
  const findings = createSecretFindings(texts.length);
  screenTexts(texts, findings);
  const { patterns, assignments } = findings;
  const redaction = redactionFor(preset);
  for (let k = 0; k < texts.length; k++)
    if (patterns[k] !== 0) texts[k] = redactScreenedText(texts[k]!, patterns[k]!, redaction, assignments[k]);
  for (let k = 0; k < pending.length; k++) {
    const index = pending[k]!;
    const message = turns[index]!;
    const text = assembleMessage(message, preset, pendingCalls[k]!, texts, firsts[k]!);
    cache?.set(message, text);
    parts[index] = text;
  }
  return joinAsRope(parts, '\n\n');
}
