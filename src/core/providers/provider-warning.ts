/**
 * A non-fatal problem met while mapping to or from a provider's wire format. The request still
 * goes out; the caller shows or logs the warning (vercel/ai `warnings[]`, conventions C8.3).
 */
export interface ProviderWarning {
  readonly type: 'unsupported' | 'dropped' | 'other';
  /** What was affected, e.g. `cache_control`, `image`, `tool_use.input`. */
  readonly feature: string;
  readonly details: string;
}
