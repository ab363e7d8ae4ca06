/** The connection pools that go through a proxy, for the check's client and --watch's probe. */
import type http from 'node:http';

/** Makes the connection pool: kept alive, or one connection a request (a retry's). */
export type AgentMaker = (keepAlive: boolean) => http.Agent;

/** The connection pools to a proxy, loaded only when a proxy is used (the proxy libraries cost nothing otherwise). */
export async function proxyAgentMaker(proxy: URL, secure: boolean, connections: number): Promise<AgentMaker> {
  if (secure) {
    const { HttpsProxyAgent } = await import('https-proxy-agent');
    return (keepAlive) => new HttpsProxyAgent(proxy, { keepAlive, maxSockets: keepAlive ? connections : Infinity });
  }
  const { HttpProxyAgent } = await import('http-proxy-agent');
  return (keepAlive) => new HttpProxyAgent(proxy, { keepAlive, maxSockets: keepAlive ? connections : Infinity });
}
