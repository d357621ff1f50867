/**
 * An input on which the Hermes generation being reproduced raised an exception (the vectors
 * record it as `{raises: "<Type>: <message>"}`). The port refuses that input with this value
 * instead of inventing a plausible result, and callers pass the refusal on: compress() then
 * compacts nothing, as Hermes' compress() raised.
 */
export interface HermesRaised {
  readonly type: 'HermesRaised';
  /** Python's exception line, e.g. `TypeError: object of type 'bool' has no len()`. */
  readonly exception: string;
  /** The Hermes function that raised, e.g. `_summarize_tool_result`. */
  readonly function: string;
}

export const hermesRaised = (fn: string, exception: string): HermesRaised => ({
  type: 'HermesRaised',
  exception,
  function: fn,
});
