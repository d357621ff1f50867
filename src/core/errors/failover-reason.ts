/** Why a provider call failed; decides the recovery (hermes-reference §7.1, `FailoverReason`). */
export const FAILOVER_REASONS = [
  'auth',
  'auth_permanent',
  'billing',
  'rate_limit',
  'upstream_rate_limit',
  'overloaded',
  'server_error',
  'timeout',
  'ssl_cert_verification',
  'context_overflow',
  'payload_too_large',
  'image_too_large',
  'model_not_found',
  'provider_policy_blocked',
  'content_policy_blocked',
  'format_error',
  'invalid_encrypted_content',
  'multimodal_tool_content_unsupported',
  'thinking_signature',
  'long_context_tier',
  'oauth_long_context_beta_forbidden',
  'llama_cpp_grammar_pattern',
  'unknown',
] as const;

export type FailoverReason = (typeof FAILOVER_REASONS)[number];
