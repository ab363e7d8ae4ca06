import packageJson from '../../package.json' with { type: 'json' };

/** This tool's version, from package.json. */
export const TOOL_VERSION: string = packageJson.version;
