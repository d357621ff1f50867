import type { ToolSchema } from '../transcript/transcript.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import type { ImportContext } from './import-context.ts';
import { isWithinDepth, MAX_KEPT_VALUE_DEPTH } from './is-within-depth.ts';
import { childPath, type SourceLocation } from './import-warning.ts';

/**
 * The tool schemas worth keeping from a list: objects no deeper than any real schema needs.
 * Each one left out is named in a warning with its JSON path.
 */
export function keepToolSchemas(
  tools: readonly unknown[],
  at: SourceLocation,
  context: ImportContext,
): ToolSchema[] {
  const kept: ToolSchema[] = [];
  tools.forEach((tool: unknown, index) => {
    const toolAt = { ...at, path: childPath(at.path, index) };
    if (!isPlainObject(tool)) context.skipPart(toolAt, 'is not a tool schema object; dropped');
    else if (!isWithinDepth(tool))
      context.skipPart(toolAt, `nests deeper than ${MAX_KEPT_VALUE_DEPTH} levels; dropped`);
    else kept.push(tool);
  });
  return kept;
}
