import { lookupModel } from './model-catalog.ts';

/** Models offered in pickers, newest first per vendor; any other id can still be typed. */
const PICKER_MODEL_IDS = [
  'claude-opus-4-7',
  'claude-sonnet-4-6',
  'claude-sonnet-4-5',
  'claude-haiku-4-5',
  'claude-opus-4-1',
  'gpt-5.5',
  'gpt-5.4',
  'gpt-5.4-mini',
  'gpt-5',
  'gpt-4.1',
  'gpt-4o',
  'o3',
  'o4-mini',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'llama-3.3-70b-instruct',
  'qwen3-coder',
  'deepseek-chat',
  'kimi-k2',
  'glm-4.6',
  'gpt-oss-120b',
] as const;

export interface ModelPickerOption {
  readonly id: string;
  readonly contextLength: number;
}

/** The picker's models with their known windows from the catalog. */
export function modelPickerOptions(): ModelPickerOption[] {
  return PICKER_MODEL_IDS.map((id) => ({ id, contextLength: lookupModel(id).contextLength }));
}
