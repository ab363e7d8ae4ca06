/** The commands of check-endpoint, by name (src/cli/commands.ts says what each does). */
export type CommandName = 'check' | 'validate' | 'serve-example' | 'demo' | 'limits' | 'show' | 'help';
