/** The check's defaults where a flag or option leaves a value out. */
export const DEFAULT_TOKEN_ENV = 'FLOW_FRAMEWORK_AGENT_TOKEN';
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** --explore-turns: the messages --explore may send on each channel, and the most it takes. */
export const DEFAULT_EXPLORE_TURNS = 300;
export const MAX_EXPLORE_TURNS = 100_000;
