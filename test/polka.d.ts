/** The part of polka 0.5 the tests use (it ships no types): an app with routes, and its Node request handler. */
declare module 'polka' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  type Handler = (request: IncomingMessage, response: ServerResponse) => void;
  interface Polka {
    post(path: string, handler: Handler): Polka;
    get(path: string, handler: Handler): Polka;
    /** The app as a Node request listener: `http.createServer(app.handler)`. */
    handler: (request: IncomingMessage, response: ServerResponse, info?: unknown) => void;
  }
  export default function polka(): Polka;
}
