/**
 * Each stack's fix in its own words. A hint names the fix in the stack that answered
 * (answering-stack.ts tells it from the answer), and only that one; when the answer tells no
 * stack, or the stack has no words for the fault, the hint gives the short rule with one line of
 * the usual fixes. Every fix here was checked against the real server or library where it runs on
 * this machine (fixtures/framework-answers/, scripts/framework-answers/capture.ts); the others
 * (.NET, Spring Boot) come from their documentation, named in docs/porting.md.
 */
import type { AnsweringStack, StackId } from './answering-stack.js';

/** A fault a hint tells the fix of. */
export type Fault =
  /** An optional property sent as null. */
  | 'null-property'
  /** `"replies": null` for no replies. */
  | 'null-replies'
  /** A request body refused for its size. */
  | 'body-limit'
  /** A request refused because message.text is "" (a photo, a voice note, a tap). */
  | 'empty-text'
  /** A request refused for fields the contract may add. */
  | 'unknown-fields'
  /** A body that is not JSON crashed the handler (5xx, or a dropped connection). */
  | 'not-json'
  /** A request that breaks the request schema was acted on (2xx). */
  | 'validate'
  /** A JSON answer sent with another content type. */
  | 'content-type'
  /** The HEAD probe crashed the handler (a dropped connection: no answer tells the stack). */
  | 'head-probe'
  /** A reply part its channel shows none of (buttons or a list on SMS), or more of it than the channel shows: the reply is not shaped for its channel. */
  | 'channel-parts';

/** The limit a body-limit fix writes, in whole mebibytes (7 for the contract's 7,000,000 bytes). */
export interface FixFacts {
  megabytes: number;
}

type Words = string | ((facts: FixFacts) => string);

interface StackWords {
  /** The stack as a hint names it: `Go (net/http, encoding/json)`. */
  name: string;
  fixes: Partial<Record<Fault, Words>>;
}

const GO_NULL =
  'tag each optional field json:"buttons,omitempty" (an object field as a pointer, Image *Image), and a nil slice or pointer is left out';
const GO_REPLIES = 'start from Replies: []Reply{} (or make([]Reply, 0)): a nil slice marshals as null';
const PYTHON_NULL = (where: string): string =>
  `leave None values out of the dict ${where} ({k: v for k, v in reply.items() if v is not None})`;
const PYTHON_NOT_JSON = (parse: string, answer: string): string =>
  `catch json.JSONDecodeError (a ValueError) around ${parse} and ${answer}`;
const JACKSON_NULL =
  '@JsonInclude(JsonInclude.Include.NON_NULL) on the reply classes (or mapper.setSerializationInclusion(JsonInclude.Include.NON_NULL))';
const JS_NULL = 'leave the property undefined (JSON.stringify drops it), never null';
const JS_NOT_JSON = 'wrap the parse in try/catch and answer 400 with a short reason';
const JS_UNKNOWN = 'drop additionalProperties: false (or zod .strict()) from the request schema and read the fields you need';
/** Shaping a reply for its channel, in Go: the café agent's own function (examples/http-agent-go/main.go). */
const GO_SHAPE =
  'switch channel { case "sms": … } on the request\u2019s channel before building the reply: on SMS the options as a numbered list in Text and Buttons left nil (omitempty leaves it out), elsewhere buttons only where they fit the count and label length, as the café agent\u2019s shape(channel, text, choices) does (examples/http-agent-go)';
/** The same in Python: the café agent's shape() (examples/http-agent-python/agent.py). */
const PYTHON_SHAPE =
  'if channel == "sms": on request["channel"] before building the reply: the options as a numbered list in the text and no "buttons" key, elsewhere buttons only where they fit, as the café agent\u2019s shape(channel, text, choices) does (examples/http-agent-python)';
/** The same in JavaScript: the reference agent's referenceAnswer(request, rules) (src/example-agent/reference-agent.ts, check-endpoint serve-example). */
const JS_SHAPE =
  "switch (request.channel) { case 'sms': … } before building the reply: the options as a numbered list in text and buttons left out, elsewhere buttons only where they fit the channel\u2019s count and label length, as the reference agent\u2019s referenceAnswer(request, rules) does (src/example-agent/reference-agent.ts)";

const STACKS: Record<StackId, StackWords> = {
  go: {
    name: 'Go (net/http, encoding/json)',
    fixes: {
      'channel-parts': GO_SHAPE,
      'null-property': GO_NULL,
      'null-replies': GO_REPLIES,
      'body-limit': ({ megabytes }) => `http.MaxBytesReader(w, r.Body, ${megabytes}<<20) (net/http itself sets no limit)`,
      'unknown-fields': 'drop DisallowUnknownFields() from the request decoder: encoding/json then skips fields the struct does not have',
      'not-json':
        'check the error of json.NewDecoder(r.Body).Decode(&req) and answer http.Error(w, err.Error(), http.StatusBadRequest); a panic drops the connection',
      validate:
        'after decoding, check each field against the request schema and answer http.Error(w, "conversationId: 1 to 200 characters", http.StatusBadRequest)',
      'content-type': 'w.Header().Set("Content-Type", "application/json") before the first Write (net/http otherwise sniffs the body)',
    },
  },
  gin: {
    name: 'Go (gin)',
    fixes: {
      'channel-parts': GO_SHAPE,
      'null-property': GO_NULL,
      'null-replies': GO_REPLIES,
      'body-limit': ({ megabytes }) => `c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, ${megabytes}<<20) in a middleware`,
      'empty-text': 'drop binding:"required" from Text: the validator refuses "" for a required string',
      'unknown-fields': 'leave binding.EnableDecoderDisallowUnknownFields false',
      validate: 'binding:"required,min=1,max=200" tags on the request struct, with c.ShouldBindJSON answering 400',
      'content-type': 'c.JSON(http.StatusOK, answer)',
    },
  },
  echo: {
    name: 'Go (echo)',
    fixes: {
      'channel-parts': GO_SHAPE,
      'null-property': GO_NULL,
      'null-replies': GO_REPLIES,
      'body-limit': ({ megabytes }) => `e.Use(middleware.BodyLimit("${megabytes}M"))`,
      'content-type': 'c.JSON(http.StatusOK, answer)',
    },
  },
  aiohttp: {
    name: 'aiohttp',
    fixes: {
      'channel-parts': PYTHON_SHAPE,
      'null-property': PYTHON_NULL('given to web.json_response'),
      'null-replies': 'web.json_response({"replies": []}), never None',
      'body-limit': ({ megabytes }) => `web.Application(client_max_size=${megabytes} * 1024**2) (1 MiB by default)`,
      'not-json': PYTHON_NOT_JSON('await request.json()', 'return web.json_response({"error": ...}, status=400)'),
      validate:
        'check each field of await request.json() and return web.json_response({"error": "conversationId: 1 to 200 characters"}, status=400)',
      'content-type': 'return web.json_response(answer) (web.Response(text=...) is text/plain)',
    },
  },
  fastapi: {
    name: 'FastAPI (pydantic)',
    fixes: {
      'channel-parts': PYTHON_SHAPE,
      'null-property': 'response_model_exclude_none=True on the route (pydantic: model_dump(exclude_none=True))',
      'null-replies': 'replies: list[Reply] = [] in the answer model',
      'empty-text': 'drop min_length=1 from it (Field(min_length=1), constr(min_length=1)); keep it a plain str',
      'unknown-fields':
        'model_config = ConfigDict(extra="ignore") on each request model (pydantic 1: class Config: extra = "ignore"); keep extra="forbid" for the answer models only',
      validate:
        'a pydantic model of the request (422 naming the field): messageId: str = Field(min_length=1, max_length=200), kind: Literal["image", "audio", "video", "document"]',
    },
  },
  uvicorn: {
    name: 'uvicorn (FastAPI, Starlette)',
    fixes: {
      'channel-parts': PYTHON_SHAPE,
      'null-property':
        'FastAPI: response_model_exclude_none=True on the route (pydantic: model_dump(exclude_none=True)); Starlette: leave None values out of the dict given to JSONResponse',
      'null-replies': '{"replies": []}, never None (pydantic: replies: list[Reply] = [])',
      'empty-text': 'pydantic: drop min_length=1 from it (Field(min_length=1), constr(min_length=1)); keep it a plain str',
      'body-limit': ({ megabytes }) =>
        `uvicorn and Starlette set no body limit: raise the one in front of them (a proxy or middleware) to ${megabytes} MB`,
      'unknown-fields':
        'pydantic: model_config = ConfigDict(extra="ignore") on each request model (pydantic 1: class Config: extra = "ignore")',
      'not-json':
        'FastAPI: take the body as a pydantic model (422 on bad JSON); Starlette: ' +
        PYTHON_NOT_JSON('await request.json()', 'return JSONResponse({"error": ...}, status_code=400)'),
      validate:
        'FastAPI: a pydantic model of the request (messageId: str = Field(min_length=1, max_length=200)); Starlette: check each field and return JSONResponse(..., status_code=400)',
      'content-type': 'return JSONResponse(answer) (FastAPI: return the dict)',
    },
  },
  tornado: {
    name: 'Tornado',
    fixes: {
      'channel-parts': PYTHON_SHAPE,
      'null-property': PYTHON_NULL('given to self.write'),
      'null-replies': 'self.write({"replies": []}), never None',
      'body-limit': ({ megabytes }) => `app.listen(port, max_body_size=${megabytes} * 1024**2) (100 MB by default)`,
      'not-json': PYTHON_NOT_JSON('json.loads(self.request.body)', 'answer self.set_status(400) with the reason'),
      'content-type': 'self.write(answer) with a dict (a str is sent as text/html)',
    },
  },
  flask: {
    name: 'Flask (Werkzeug)',
    fixes: {
      'channel-parts': PYTHON_SHAPE,
      'null-property': PYTHON_NULL('given to jsonify'),
      'null-replies': 'jsonify(replies=[]), never None',
      'body-limit': ({ megabytes }) => `app.config["MAX_CONTENT_LENGTH"] = ${megabytes} * 1024 * 1024`,
      'not-json': 'request.get_json(silent=True), and answer jsonify(error=...), 400 when it is None',
      'content-type': 'return jsonify(answer) (a str is sent as text/html)',
    },
  },
  django: {
    name: 'Django',
    fixes: {
      'channel-parts': PYTHON_SHAPE,
      'null-property': PYTHON_NULL('given to JsonResponse'),
      'null-replies': 'JsonResponse({"replies": []}), never None',
      'body-limit': ({ megabytes }) => `DATA_UPLOAD_MAX_MEMORY_SIZE = ${megabytes} * 1024 * 1024 in settings.py (2.5 MB by default)`,
      'not-json': PYTHON_NOT_JSON('json.loads(request.body)', 'return JsonResponse({"error": ...}, status=400)'),
      'content-type': 'return JsonResponse(answer)',
    },
  },
  'python-http-server': {
    name: "Python's http.server",
    fixes: {
      'channel-parts': PYTHON_SHAPE,
      'null-property': PYTHON_NULL('before json.dumps'),
      'null-replies': 'json.dumps({"replies": []}), never None',
      'body-limit': ({ megabytes }) =>
        `http.server sets no limit: raise the one the handler checks against Content-Length to ${megabytes} MB`,
      'not-json': PYTHON_NOT_JSON('json.loads(body)', 'answer self.send_response(400) with the reason'),
      'content-type': 'self.send_header("Content-Type", "application/json")',
    },
  },
  jackson: {
    name: 'Java (Jackson)',
    fixes: {
      'null-property': JACKSON_NULL,
      'null-replies': 'initialise the list: List<Reply> replies = new ArrayList<>()',
      'unknown-fields':
        'mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false) (or @JsonIgnoreProperties(ignoreUnknown = true) on the request classes): Jackson refuses unknown fields by default',
      'not-json': 'catch JsonProcessingException around mapper.readValue(...) and answer 400 with the reason',
    },
  },
  'jdk-httpserver': {
    name: "Java (the JDK's HttpServer)",
    fixes: {
      'null-property': `with Jackson, ${JACKSON_NULL}; Gson leaves nulls out unless serializeNulls()`,
      'null-replies': 'initialise the list: List<Reply> replies = new ArrayList<>()',
      'body-limit': ({ megabytes }) => `the JDK's HttpServer sets no limit: raise the one the handler checks to ${megabytes} MB`,
      'not-json':
        'catch the parser\u2019s exception and answer exchange.sendResponseHeaders(400, ...); an exception out of the handler drops the connection',
      'content-type': 'exchange.getResponseHeaders().set("Content-Type", "application/json") before sendResponseHeaders',
    },
  },
  spring: {
    name: 'Spring Boot',
    fixes: {
      'null-property':
        'spring.jackson.default-property-inclusion=non_null in application.properties (or @JsonInclude(JsonInclude.Include.NON_NULL))',
      'null-replies': 'initialise the list: List<Reply> replies = new ArrayList<>()',
      'unknown-fields':
        'spring.jackson.deserialization.fail-on-unknown-properties=false (Spring Boot\u2019s default), and no @JsonIgnoreProperties(ignoreUnknown = false)',
      validate: '@Valid on the request body with @NotBlank @Size(max = 200) on its fields',
    },
  },
  dotnet: {
    name: '.NET (System.Text.Json)',
    fixes: {
      'null-property':
        'DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull in the JsonSerializerOptions (ASP.NET Core: ConfigureHttpJsonOptions)',
      'null-replies': 'initialise the list: public List<Reply> Replies { get; set; } = new();',
      'unknown-fields':
        'drop UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow: System.Text.Json skips unknown members by default',
      'content-type': 'return Results.Json(answer)',
    },
  },
  php: {
    name: 'PHP',
    fixes: {
      'null-property': 'array_filter($reply, fn($v) => $v !== null) before json_encode',
      'null-replies': "json_encode(['replies' => []]), never null",
      'body-limit': ({ megabytes }) => `post_max_size = ${megabytes + 1}M in php.ini (8M by default)`,
      'not-json':
        "check json_decode(file_get_contents('php://input'), true) for null (or pass JSON_THROW_ON_ERROR) and answer http_response_code(400); set display_errors=0 so warnings stay out of the body",
      'content-type': "header('Content-Type: application/json') before echo json_encode(...) (PHP sends text/html)",
    },
  },
  sinatra: {
    name: 'Ruby (Sinatra)',
    fixes: {
      'null-property': 'reply.compact before to_json',
      'null-replies': '{ replies: [] }.to_json, never nil',
      'not-json': 'rescue JSON::ParserError around JSON.parse(request.body.read) and halt 400, { error: e.message }.to_json',
      'content-type': 'content_type :json in the route (Sinatra sends text/html)',
    },
  },
  ruby: {
    name: 'Ruby (Rack)',
    fixes: {
      'null-property': 'reply.compact before to_json',
      'null-replies': '{ replies: [] }.to_json, never nil',
      'not-json': 'rescue JSON::ParserError around JSON.parse(request.body.read) and answer 400 with the reason',
      'content-type': "[200, { 'content-type' => 'application/json' }, [body]] (Sinatra: content_type :json)",
    },
  },
  express: {
    name: 'express',
    fixes: {
      'channel-parts': JS_SHAPE,
      'null-property': JS_NULL,
      'body-limit': ({ megabytes }) => `express.json({ limit: '${megabytes}mb' })`,
      'unknown-fields': JS_UNKNOWN,
      'not-json': JS_NOT_JSON,
      'content-type': 'res.json(answer)',
    },
  },
  fastify: {
    name: 'Fastify',
    fixes: {
      'channel-parts': JS_SHAPE,
      'null-property': JS_NULL,
      'body-limit': ({ megabytes }) => `Fastify({ bodyLimit: ${megabytes} * 1024 * 1024 })`,
      'unknown-fields': 'drop additionalProperties: false from the route\u2019s body schema',
      validate: 'a body schema on the route (schema: { body: requestSchema }): Fastify answers 400 naming the field',
      'content-type': 'reply.send(answer) with an object',
    },
  },
  hapi: {
    name: 'hapi',
    fixes: {
      'channel-parts': JS_SHAPE,
      'null-property': JS_NULL,
      'body-limit': ({ megabytes }) =>
        `the route's options: { payload: { maxBytes: ${megabytes} * 1024 * 1024 } } (or routes.payload.maxBytes in Hapi.server())`,
      'unknown-fields': JS_UNKNOWN,
    },
  },
  koa: {
    name: 'Koa',
    fixes: {
      'channel-parts': JS_SHAPE,
      'null-property': JS_NULL,
      'body-limit': ({ megabytes }) => `bodyParser({ jsonLimit: '${megabytes}mb' }) (koa-bodyparser, @koa/bodyparser)`,
      'unknown-fields': JS_UNKNOWN,
      'not-json': JS_NOT_JSON,
    },
  },
  nextjs: {
    name: 'Next.js',
    fixes: {
      'channel-parts': JS_SHAPE,
      'null-property': JS_NULL,
      'body-limit': ({ megabytes }) =>
        `export const config = { api: { bodyParser: { sizeLimit: '${megabytes}mb' } } } in the API route (Server Actions: experimental.serverActions.bodySizeLimit)`,
      'content-type': 'return Response.json(answer) (pages router: res.json(answer))',
    },
  },
  node: {
    name: 'Node.js',
    fixes: {
      'channel-parts': JS_SHAPE,
      'null-property': JS_NULL,
      // Node's http sets no body limit; the framework's body parser does.
      'body-limit': ({ megabytes }) =>
        `its body parser's setting (Node's http has none): express.json({ limit: '${megabytes}mb' }), Fastify bodyLimit, koa-bodyparser jsonLimit, Next.js api.bodyParser.sizeLimit, hapi payload.maxBytes`,
      'unknown-fields': JS_UNKNOWN,
      'not-json': JS_NOT_JSON,
      'content-type': "res.setHeader('content-type', 'application/json')",
    },
  },
  nginx: {
    name: 'nginx',
    fixes: {
      'body-limit': ({ megabytes }) => `client_max_body_size ${megabytes}m; in the server or location block`,
    },
  },
};

/** The usual fixes in one line, for an answer that tells no stack. */
const USUAL: Record<Fault, Words> = {
  'null-property':
    'Go: ,omitempty; pydantic: exclude_none=True; Jackson: @JsonInclude(NON_NULL); System.Text.Json: WhenWritingNull; JavaScript: leave it undefined',
  'null-replies': 'Go: []Reply{}, as a nil slice marshals as null; Python: [], not None; Java and C#: an empty list, not null',
  'body-limit': ({ megabytes }) =>
    `Go: http.MaxBytesReader(w, r.Body, ${megabytes}<<20); express: express.json({ limit: '${megabytes}mb' }); Fastify: bodyLimit; aiohttp: client_max_size; Django: DATA_UPLOAD_MAX_MEMORY_SIZE; nginx: client_max_body_size ${megabytes}m`,
  'empty-text': 'pydantic: drop min_length=1; gin: drop binding:"required"; a JSON Schema: no minLength on message.text',
  'unknown-fields':
    'Go: drop DisallowUnknownFields(); pydantic: extra="ignore"; Jackson: FAIL_ON_UNKNOWN_PROPERTIES false; a JSON Schema: no additionalProperties: false',
  'not-json':
    'Go: check Decode\u2019s error; Python: catch json.JSONDecodeError; JavaScript: wrap JSON.parse in try/catch; Java: catch JsonProcessingException',
  validate:
    'FastAPI: a pydantic model with Field(min_length=1, max_length=200); Fastify: a body schema; Go: check each field after decoding',
  'content-type':
    'Go: w.Header().Set("Content-Type", "application/json"); PHP: header(...); Sinatra: content_type :json; express: res.json()',
  'head-probe':
    "Node: if (req.method === 'HEAD') return res.end() before reading the body; Go: if r.Method == http.MethodHead { return } before decoding",
  'channel-parts':
    'Go: switch channel { case "sms": … } before building the reply (the café agent\u2019s shape()); Python: if channel == "sms"; JavaScript: switch (request.channel)',
};

const said = (words: Words, facts: FixFacts): string => (typeof words === 'string' ? words : words(facts));

/** The stack as a hint names it. */
export function stackName(id: StackId): string {
  return STACKS[id].name;
}

/** The fix of a fault in the words of the stack that answered, or undefined when it has none for it. */
export function stackFix(fault: Fault, stack: AnsweringStack | undefined, facts: FixFacts = { megabytes: 7 }): string | undefined {
  const words = stack ? STACKS[stack.id].fixes[fault] : undefined;
  return words === undefined ? undefined : said(words, facts);
}

/**
 * The fix in one sentence: `Go (net/http, encoding/json), told by Go's net/http headers: tag each …`
 * for a stack the answer told and that has words for the fault; else `The usual fixes: Go: …; …`.
 */
export function fixSentence(fault: Fault, stack: AnsweringStack | undefined, facts: FixFacts = { megabytes: 7 }): string {
  return stackSentence(fault, stack, facts) ?? `The usual fixes: ${said(USUAL[fault], facts)}.`;
}

/**
 * The fix in the words of the stack that answered, as one sentence (`Go (net/http, encoding/json)
 * (told by Go's net/http headers): shape each reply …`), or undefined where the answer told no stack
 * or the stack has no words for the fault: a hint that reads whole without it adds nothing then.
 */
export function stackSentence(fault: Fault, stack: AnsweringStack | undefined, facts: FixFacts = { megabytes: 7 }): string | undefined {
  const fix = stackFix(fault, stack, facts);
  return fix !== undefined && stack ? `${STACKS[stack.id].name} (told by ${stack.sign}): ${fix}.` : undefined;
}
