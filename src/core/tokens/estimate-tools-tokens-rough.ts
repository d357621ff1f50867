import type { Preset } from '../presets/preset.ts';
import { assertNever } from '../shared/assert-never.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import { roughTokensFromChars } from './estimate-tokens-rough.ts';
import { pythonJsonDumpsLength } from './python-json-dumps.ts';
import { pythonLength } from './python-length.ts';
import { pythonReprLength } from './python-repr.ts';
import { pythonTruthy } from './python-truthy.ts';

const COMPACT_SEPARATORS = { itemSeparator: ',', keySeparator: ':' } as const;

/**
 * Characters Hermes counts for tool schemas. 2026-04: `len(str(tools))`. 2026-07: per tool,
 * name + description + `json.dumps(parameters, separators=(",", ":"))`, reading `tool.function`
 * when it is a dict, else the tool itself.
 */
export function toolsChars(tools: readonly ToolSchema[] | null | undefined, preset: Preset): number {
  if (!tools || tools.length === 0) return 0;
  const mode = preset.estimation.toolsSize;
  switch (mode) {
    case 'repr':
      return pythonReprLength(tools);
    case 'schema-fields': {
      let chars = 0;
      for (const tool of tools) {
        if (!isPlainObject(tool)) continue;
        const source = isPlainObject(tool.function) ? tool.function : tool;
        for (const field of [source.name, source.description]) {
          if (typeof field === 'string') chars += pythonLength(field);
        }
        const parameters = pythonTruthy(source.parameters) ? source.parameters : {};
        chars += pythonJsonDumpsLength(parameters, COMPACT_SEPARATORS);
      }
      return chars;
    }
    default:
      return assertNever(mode);
  }
}

/** Hermes `_estimate_tools_tokens_rough(tools)` (2026-07); for 2026-04, `(len(str(tools)) + 3) // 4`. */
export function estimateToolsTokensRough(
  tools: readonly ToolSchema[] | null | undefined,
  preset: Preset,
): number {
  return roughTokensFromChars(toolsChars(tools, preset));
}
