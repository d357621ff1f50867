/**
 * Responses-API item types that carry conversation: what Codex rollouts wrap in
 * `response_item` (and old rollouts wrote bare), and what an OpenAI Responses `input` or
 * `output` list holds.
 */
export const RESPONSES_ITEM_TYPES = new Set([
  'message',
  'function_call',
  'function_call_output',
  'function_result',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'reasoning',
  'web_search_call',
]);
