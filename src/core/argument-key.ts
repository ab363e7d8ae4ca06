/** `agent-timeout` → `agentTimeout`: a flag's name as a key (of the commands' arguments, of a config file). */
export function argumentKey(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
