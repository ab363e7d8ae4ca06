/**
 * The captured answers of servers that are not the agent (fixtures/framework-answers/), with the
 * status and hint the check gives each: judged by test/connection-words.test.ts.
 */
export const NOT_AN_AGENT_ANSWERS: readonly { name: string; status: number; hint: string }[] = [
  {
    name: 'express-404-cannot-post',
    status: 404,
    hint: `express answered "Cannot POST /agent": the app has no POST route at this path. Point check-endpoint at the path the agent's route listens on, or add the route.`,
  },
  {
    name: 'fastify-404-route-not-found',
    status: 404,
    hint: `Fastify answered "Route POST:/agent not found": the app has no POST route at this path. Point check-endpoint at the path the agent's route listens on, or add the route.`,
  },
  {
    name: 'nginx-404-not-found',
    status: 404,
    hint: 'nginx/1.22.1 answered "404 Not Found": nothing at this path takes the request. The URL\'s path is wrong, or the server does not pass it to the agent (an nginx location, a proxy rule).',
  },
  {
    name: 'koa-404-not-found',
    status: 404,
    // Koa's bare "Not Found" names no server: the generic words, nothing invented.
    hint: 'The URL path is probably wrong: point check-endpoint at the path the agent listens on for POST.',
  },
  {
    name: 'nginx-405-not-allowed',
    status: 405,
    hint: 'nginx/1.22.1 refused POST at this path ("405 Not Allowed"): it serves a static file here, not the agent. Point check-endpoint at the path nginx passes to the agent.',
  },
  {
    name: 'nginx-400-plain-http-to-https-port',
    status: 400,
    hint: 'The server on this port speaks https (it says "The plain HTTP request was sent to HTTPS port"): use https:// instead of http://.',
  },
  {
    name: 'python-http-server-501-post',
    status: 501,
    hint: `The server at this URL does not take POST (server: SimpleHTTP/0.6 Python/3.11.7): "Unsupported method ('POST')". It is probably a static file server (python3 -m http.server answers HEAD and GET only), not the agent: point check-endpoint at the URL the agent listens on.`,
  },
];
