/** The exact tokenizers the worker can load. */
export const TOKEN_ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
export type TokenEncoding = (typeof TOKEN_ENCODINGS)[number];

/** What a count is based on: Hermes' rough chars/4 estimate or an exact tokenizer. */
export const ESTIMATORS = ['rough', ...TOKEN_ENCODINGS] as const;
export type Estimator = (typeof ESTIMATORS)[number];

export const isTokenEncoding = (value: unknown): value is TokenEncoding =>
  (TOKEN_ENCODINGS as readonly unknown[]).includes(value);

export const isEstimator = (value: unknown): value is Estimator =>
  (ESTIMATORS as readonly unknown[]).includes(value);
