import type { ErrorObject, ValidateFunction } from 'ajv';
import { type Contract, type JsonSchema, MAX_WAIT_SECONDS, type PlatformRules } from './contract.js';
import { ContractError } from './contract-error.js';
import { RULE_ID, type RuleFacts } from '../core/findings.js';

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
  const platformEntries = document['x-platforms'];
  if (!isObject(platformEntries)) return fail('has no `x-platforms` object (what each platform shows)');
  const platforms: Record<string, PlatformRules> = {};
  for (const [channel, rules] of Object.entries(platformEntries)) {
    if (!validatePlatformRules(rules)) {
      fail(describeSchemaErrors(`x-platforms.${channel}`, validatePlatformRules.errors));
    }
    platforms[channel] = rules as PlatformRules;
  }
  const rules = extractRules(document['x-rules'], fail);
  const info = isObject(document.info) ? document.info : {};
  return {
    version: typeof info.version === 'string' ? info.version : 'unknown',
    source,
    agentTimeoutSeconds: timeout as number,
    requestSchema: requestSchema as JsonSchema,
    responseSchema: responseSchema as JsonSchema,
    platforms,
    rules,
  };
}

/** `x-rules`: each rule's id, level, section and statement; a document without it names none. */
function extractRules(entries: unknown, fail: (problem: string) => never): Record<string, RuleFacts> {
  if (entries === undefined) return {};
  if (!Array.isArray(entries)) return fail('`x-rules` must be a list of rules');
  const rules: Record<string, RuleFacts> = {};
  entries.forEach((entry: unknown, index) => {
    const where = `x-rules[${index}]`;
    if (!isObject(entry)) return fail(`${where} must be an object`);
    const { id, level, section, statement } = entry;
    if (typeof id !== 'string' || !RULE_ID.test(id)) fail(`${where}.id must be a rule id (lower case letters, digits and -)`);
    if (level !== 'must' && level !== 'should') fail(`${where}.level must be must or should`);
    if (typeof section !== 'string' || section === '') fail(`${where}.section must name the contract's section (a URL)`);
    if (typeof statement !== 'string' || statement === '') fail(`${where}.statement must say the requirement`);
    if (Object.hasOwn(rules, id)) fail(`${where}: ${id} is listed twice`);
    rules[id] = { level, section, statement };
  });
  return rules;
}
