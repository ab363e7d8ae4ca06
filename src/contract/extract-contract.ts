import type { ErrorObject, ValidateFunction } from 'ajv';
import { type Contract, type JsonSchema, MAX_WAIT_SECONDS, type PlatformRules } from './contract.js';
import { ContractError } from './contract-error.js';

const DEFAULT_AGENT_TIMEOUT_SECONDS = 60;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function at(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), value);
}

/** `x-platforms.whatsapp.buttons.maxCount must be integer`, from ajv errors of one entry. */
export function describeSchemaErrors(prefix: string, errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((error) => {
      const where = `${prefix}${error.instancePath.replace(/\//g, '.')}`;
      const extra =
        error.keyword === 'additionalProperties'
          ? ` (${String(error.params.additionalProperty)})`
          : error.keyword === 'enum'
            ? ` (${(error.params.allowedValues as unknown[]).join(', ')})`
            : '';
      return `${where} ${error.message ?? 'is invalid'}${extra}`;
    })
    .join('; ');
}

/**
 * Takes what the checker needs from a validated, dereferenced OpenAPI document: the POST
 * operation's request and `200` answer schemas, its timeout, and the platforms' rules, each
 * checked against the platform-limits schema.
 */
export function extractContract(document: unknown, source: string, validatePlatformRules: ValidateFunction): Contract {
  const fail = (problem: string): never => {
    throw new ContractError(`${source}: ${problem}`);
  };
  if (!isObject(document)) return fail('not an OpenAPI document');
  const paths = isObject(document.paths) ? document.paths : fail('has no `paths`');
  const operations = Object.entries(paths).filter(([, item]) => isObject(item) && isObject(item.post));
  if (operations.length !== 1) {
    fail(`needs exactly one path with a \`post\` operation (the agent endpoint), found ${operations.length}`);
  }
  const [pathName, pathItem] = operations[0] as [string, Record<string, unknown>];
  const post = pathItem.post as Record<string, unknown>;
  const requestSchema = at(post, ['requestBody', 'content', 'application/json', 'schema']);
  if (!isObject(requestSchema)) fail(`paths.${pathName}.post has no application/json request body schema`);
  const responseSchema = at(post, ['responses', '200', 'content', 'application/json', 'schema']);
  if (!isObject(responseSchema)) fail(`paths.${pathName}.post has no application/json schema for status 200`);
  const timeout = post['x-agent-timeout-seconds'] ?? DEFAULT_AGENT_TIMEOUT_SECONDS;
  if (typeof timeout !== 'number' || !(timeout > 0) || timeout > MAX_WAIT_SECONDS) {
    fail(`paths.${pathName}.post.x-agent-timeout-seconds must be a positive number of seconds, at most ${MAX_WAIT_SECONDS}`);
  }
  const byteCount = (name: string): number | undefined => {
    const value = post[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      return fail(`paths.${pathName}.post.${name} must be a positive whole number of bytes`);
    }
    return value;
  };
  const maxRequestBytes = byteCount('x-max-request-bytes');
  const largeAttachmentBytes = byteCount('x-large-attachment-bytes');
  const platformEntries = document['x-platforms'];
  if (!isObject(platformEntries)) return fail('has no `x-platforms` object (what each platform shows)');
  const platforms: Record<string, PlatformRules> = {};
  for (const [channel, rules] of Object.entries(platformEntries)) {
    if (!validatePlatformRules(rules)) {
      fail(describeSchemaErrors(`x-platforms.${channel}`, validatePlatformRules.errors));
    }
    platforms[channel] = rules as PlatformRules;
  }
  const info = isObject(document.info) ? document.info : {};
  return {
    version: typeof info.version === 'string' ? info.version : 'unknown',
    source,
    agentTimeoutSeconds: timeout as number,
    ...(maxRequestBytes !== undefined ? { maxRequestBytes } : {}),
    ...(largeAttachmentBytes !== undefined ? { largeAttachmentBytes } : {}),
    requestSchema: requestSchema as JsonSchema,
    responseSchema: responseSchema as JsonSchema,
    platforms,
  };
}
