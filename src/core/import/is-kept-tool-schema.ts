import type { ToolSchema } from '../transcript/transcript.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import { isWithinDepth } from './is-within-depth.ts';

/** A tool schema worth keeping: an object, not nested beyond what any real schema needs. */
export const isKeptToolSchema = (value: unknown): value is ToolSchema =>
  isPlainObject(value) && isWithinDepth(value);
