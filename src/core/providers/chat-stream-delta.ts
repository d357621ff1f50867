/**
 * One increment of a streamed reply, the same for every provider. Tool-call deltas are keyed
 * by the call's position among the reply's tool calls (0, 1, …), not by the provider's block index.
 */
export type ChatStreamDelta =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'reasoning-delta'; readonly text: string }
  | {
      readonly type: 'tool-call-delta';
      readonly index: number;
      /** Present on the first delta of a call. */
      readonly id?: string;
      readonly name?: string;
      readonly argumentsDelta: string;
    };
