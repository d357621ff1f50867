/** An exact tokenizer. The worker implements it with js-tiktoken; core takes one as a parameter. */
export interface TokenCounter {
  count(text: string): number;
}
