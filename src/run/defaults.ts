/** The check's defaults where a flag or option leaves a value out. */
export const DEFAULT_TOKEN_ENV = 'FLOW_FRAMEWORK_AGENT_TOKEN';
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
