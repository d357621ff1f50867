import type { ProviderWarning } from '../provider-warning.ts';
import type { AnthropicCacheControl, AnthropicRequestBody } from './anthropic-wire-types.ts';

/** The API rejects a request with more than 4 blocks carrying `cache_control`. */
export const MAX_CACHE_BREAKPOINTS = 4;

interface MarkedBlock {
  cache_control?: AnthropicCacheControl;
}

interface Breakpoint {
  block: MarkedBlock;
  where: string;
  /** Tools and system form the stable prefix; their markers are the most valuable. */
  anchor: boolean;
}

/**
 * Drops breakpoints beyond the API's limit, in place, and says which. Markers on tools and the
 * system prompt are kept first (Hermes' `system_and_3` always keeps the system one); of the
 * message markers the latest are kept, because the newest prefix is the one the next turn reads.
 */
export function limitAnthropicCacheBreakpoints(body: AnthropicRequestBody): ProviderWarning[] {
  const breakpoints = collectBreakpoints(body);
  if (breakpoints.length <= MAX_CACHE_BREAKPOINTS) return [];
  const anchors = breakpoints.filter((breakpoint) => breakpoint.anchor);
  const inMessages = breakpoints.filter((breakpoint) => !breakpoint.anchor);
  const keptAnchors = anchors.slice(0, MAX_CACHE_BREAKPOINTS);
  const messageSlots = MAX_CACHE_BREAKPOINTS - keptAnchors.length;
  const kept = new Set([...keptAnchors, ...(messageSlots > 0 ? inMessages.slice(-messageSlots) : [])]);
  const warnings: ProviderWarning[] = [];
  for (const breakpoint of breakpoints) {
    if (kept.has(breakpoint)) continue;
    delete breakpoint.block.cache_control;
    warnings.push({
      type: 'dropped',
      feature: 'cache_control',
      details: `${breakpoint.where}: more than ${MAX_CACHE_BREAKPOINTS} cache breakpoints; this one was dropped`,
    });
  }
  return warnings;
}

/** Removes every `cache_control` from the body, in place. */
export function removeAnthropicCacheControl(body: AnthropicRequestBody): void {
  for (const breakpoint of collectBreakpoints(body)) delete breakpoint.block.cache_control;
}

function collectBreakpoints(body: AnthropicRequestBody): Breakpoint[] {
  const breakpoints: Breakpoint[] = [];
  const visit = (block: MarkedBlock, where: string, anchor: boolean): void => {
    if (block.cache_control !== undefined) breakpoints.push({ block, where, anchor });
  };
  body.tools?.forEach((tool, index) => visit(tool, `tool ${index}`, true));
  body.system?.forEach((block, index) => visit(block, `system block ${index}`, true));
  body.messages.forEach((turn, turnIndex) => {
    turn.content.forEach((block, blockIndex) => {
      const where = `turn ${turnIndex}, block ${blockIndex}`;
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        block.content.forEach((inner, innerIndex) =>
          visit(inner, `${where}, inner block ${innerIndex}`, false),
        );
      }
      if (block.type !== 'thinking' && block.type !== 'redacted_thinking') visit(block, where, false);
    });
  });
  return breakpoints;
}
