/**
 * The one table of legacy call shapes, handler registrations and MRTR names.
 *
 * The analyzer (ts-morph), the transforms (jscodeshift/Babel) and the ESLint rules (TSESTree) each walk
 * a different AST. They all turn a call into the same AST-free description (a `CallShape`) and ask
 * this module what it is, so the three can never disagree about what counts as a legacy site.
 * `test/vocabulary-parity.test.ts` proves it on the shared fixtures.
 *
 * No AST types here: only strings and plain data.
 */

/** What the legacy request asks the client for. */
export type SiteKind = 'elicitation' | 'sampling' | 'roots';

/** How the legacy request is written (the JSON report's `form`). */
export type SiteForm =
  | 'elicitInput'
  | 'createMessage'
  | 'requestSampling'
  | 'listRoots'
  | 'send'
  | 'sendRequest'
  | 'request'
  | 'url-elicitation-error';

export type HandlerKind = 'tool' | 'prompt' | 'resource';

/** Spec method names of the three server→client requests, and what they ask for. */
export const SPEC_METHODS: Readonly<Record<string, SiteKind>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** v1 result-schema names that name the same requests (`extra.sendRequest(req, ElicitResultSchema)`). */
export const RESULT_SCHEMAS: Readonly<Record<string, SiteKind>> = {
  ElicitResultSchema: 'elicitation',
  CreateMessageResultSchema: 'sampling',
  CreateMessageResultWithToolsSchema: 'sampling',
  ListRootsResultSchema: 'roots',
};

/**
 * Which receiver a method is legacy on.
 * - `mcpReq`:   the v2 handler context, `<ctx>.mcpReq.<method>`
 * - `extra`:    the v1 handler extra, `<extra>.<method>` (any receiver name: it is passed around)
 * - `server`:   a protocol `Server`: `<mcpServer>.server.<method>`, or a low-level `Server` instance
 *               (the adapter decides, e.g. a receiver whose last segment is `server`, or a variable
 *               initialised with `new Server(...)`)
 * - `tasks`:    v1's experimental task streams, `<server>.experimental.tasks.<method>`
 */
export type ReceiverRole = 'mcpReq' | 'extra' | 'server' | 'tasks';

export interface LegacyMethod {
  /** The property name called. */
  readonly name: string;
  readonly form: SiteForm;
  /** Fixed kind, or `'by-method'` when the request's `method` literal decides (raw send/request). */
  readonly kind: SiteKind | 'by-method';
  readonly receivers: readonly ReceiverRole[];
  /**
   * May the method be called bare, after being destructured or passed on
   * (`const { sendRequest } = extra; await sendRequest({ method: 'elicitation/create', … }, S)`)?
   * Bare raw senders still need a spec method literal.
   */
  readonly bareAllowed: boolean;
  /**
   * Is the name alone a legacy request wherever the file is server-side code (`elicitInput`,
   * `requestSampling`: nothing else is called so)? Then any receiver counts when the adapter says the
   * file is server-side (`CallShape.serverSideFile`).
   */
  readonly distinctive?: boolean;
}

/** Every legacy push-style method, by the property name called. */
export const LEGACY_METHODS: readonly LegacyMethod[] = [
  { name: 'elicitInput', form: 'elicitInput', kind: 'elicitation', receivers: ['mcpReq', 'server'], bareAllowed: true, distinctive: true },
  { name: 'requestSampling', form: 'requestSampling', kind: 'sampling', receivers: ['mcpReq'], bareAllowed: true, distinctive: true },
  // `createMessage`/`listRoots` are common names elsewhere (LLM clients): only on a protocol Server.
  { name: 'createMessage', form: 'createMessage', kind: 'sampling', receivers: ['server'], bareAllowed: false },
  { name: 'listRoots', form: 'listRoots', kind: 'roots', receivers: ['server'], bareAllowed: false },
  { name: 'send', form: 'send', kind: 'by-method', receivers: ['mcpReq'], bareAllowed: true },
  { name: 'sendRequest', form: 'sendRequest', kind: 'by-method', receivers: ['extra'], bareAllowed: true },
  { name: 'request', form: 'request', kind: 'by-method', receivers: ['server'], bareAllowed: false },
  // v1 only, experimental (removed in v2): task-augmented streams; reported under the form they stream
  { name: 'elicitInputStream', form: 'elicitInput', kind: 'elicitation', receivers: ['tasks'], bareAllowed: false },
  { name: 'createMessageStream', form: 'createMessage', kind: 'sampling', receivers: ['tasks'], bareAllowed: false },
  { name: 'requestStream', form: 'request', kind: 'by-method', receivers: ['tasks'], bareAllowed: false },
];

/** Legacy methods that open an experimental task stream (never servable by MRTR). */
export const TASK_STREAM_METHODS: readonly string[] = ['elicitInputStream', 'createMessageStream', 'requestStream'];

/** `throw new UrlElicitationRequiredError(...)`: the 2025 URL-elicitation error (-32042). */
export const URL_ELICITATION_ERROR = 'UrlElicitationRequiredError';

/**
 * Does the callee of a `new` (its member chain) name the URL-elicitation error? The chain ends in the
 * class's own name (`new UrlElicitationRequiredError(…)`, `new sdk.UrlElicitationRequiredError(…)` after
 * `import * as sdk`), or it is a name the file binds to the class under another name (`import {
 * UrlElicitationRequiredError as NeedsUrl }`, `const { UrlElicitationRequiredError: NeedsUrl } =
 * require(…)`): `renamed` holds those local names, each AST collecting them from its own imports
 * (`urlErrorRenaming` says which bindings count).
 */
export function isUrlElicitationErrorClass(chain: readonly string[], renamed: ReadonlySet<string>): boolean {
  const last = chain[chain.length - 1];
  return last === URL_ELICITATION_ERROR || (chain.length === 1 && renamed.has(last));
}

/** The local name an import or a destructured `require` binds to the URL-elicitation error, if the binding is one (`imported` is the module's export name). */
export function urlErrorRenaming(imported: string | undefined, local: string | undefined): string | undefined {
  return imported === URL_ELICITATION_ERROR && local !== undefined && local !== imported ? local : undefined;
}

/**
 * The texts whose absence from a file proves it holds no legacy site (the plain-text prefilter run
 * before any parse). Raw `send`/`sendRequest`/`request` are too common to filter on, but they only count
 * with a spec method literal or a v1 result schema, so those strings stand in for them.
 */
export const PREFILTER_NAMES: readonly string[] = [
  ...new Set([
    ...LEGACY_METHODS.filter((m) => m.kind !== 'by-method').map((m) => m.name),
    ...Object.keys(SPEC_METHODS),
    ...Object.keys(RESULT_SCHEMAS),
    URL_ELICITATION_ERROR,
  ]),
];

/**
 * An AST-free description of a call, built by each AST adapter.
 * `callee` is the member chain as written, outermost receiver first, with casts, non-null
 * assertions, parentheses and `await` stripped: `this.server.server.elicitInput(...)` →
 * `['this', 'server', 'server', 'elicitInput']`; a bare call `sendRequest(...)` → `['sendRequest']`.
 * Computed or call-result segments are `'?'` (e.g. `getCtx().mcpReq.send` → `['?', 'mcpReq', 'send']`).
 */
export interface CallShape {
  readonly callee: readonly string[];
  /**
   * The `method` of the first argument when it is (or resolves, through a local const or object
   * literal, to) a string literal; `undefined` when absent or not statically known.
   */
  readonly methodLiteral?: string;
  /** Name of the second argument when it is an identifier (a v1 result schema), else undefined. */
  readonly resultSchemaName?: string;
  /**
   * The adapter's verdict that the receiver is a protocol `Server` although its last segment is not
   * `server` (e.g. a variable initialised with `new Server(...)`, or a class field typed `Server`).
   */
  readonly receiverIsServer?: boolean;
  /** The bare callee was destructured from, or is a parameter fed by, a legacy receiver. */
  readonly bareFromLegacyReceiver?: boolean;
  /**
   * The adapter's verdict, by following the value (variables, parameters, fields, types), of the role
   * the receiver plays, whatever it is called (`const sdk = mcp.server; sdk.createMessage(…)`).
   */
  readonly receiverRole?: ReceiverRole;
  /** The adapter knows the call is in server-side code (not a client-only file): distinctive names count on any receiver. */
  readonly serverSideFile?: boolean;
}

export interface LegacyCallMatch {
  readonly kind: SiteKind;
  readonly form: SiteForm;
  readonly method: LegacyMethod;
}

/** The receiver segment names that mark the v2 context request object and the protocol server. */
const MCP_REQ_SEGMENT = 'mcpReq';
const SERVER_SEGMENT = 'server';

/** Is this call a legacy server→client request? The single decision all three ASTs share. */
export function matchLegacyCall(shape: CallShape): LegacyCallMatch | undefined {
  const { callee } = shape;
  if (callee.length === 0) return undefined;
  const name = callee[callee.length - 1];
  const method = LEGACY_METHODS.find((m) => m.name === name);
  if (!method) return undefined;

  const receiver = callee.slice(0, -1);
  if (receiver.length === 0) {
    if (!method.bareAllowed) return undefined;
    // A bare `send(...)`/`elicitInput(...)` is only legacy when it came off a legacy receiver;
    // a bare `sendRequest` is distinctive enough with a spec method literal.
    if (!shape.bareFromLegacyReceiver && method.name !== 'sendRequest') return undefined;
  } else if (!method.receivers.some((role) => receiverPlays(role, receiver, shape)) && !(method.distinctive && shape.serverSideFile)) {
    return undefined;
  }

  const kind = method.kind === 'by-method' ? kindOfRawRequest(shape) : method.kind;
  if (!kind) return undefined;
  return { kind, form: method.form, method };
}

function receiverPlays(role: ReceiverRole, receiver: readonly string[], shape: CallShape): boolean {
  const last = receiver[receiver.length - 1];
  if (shape.receiverRole === role) return true;
  switch (role) {
    case 'mcpReq':
      return last === MCP_REQ_SEGMENT;
    case 'server':
      return last === SERVER_SEGMENT || shape.receiverIsServer === true;
    case 'extra':
      // `extra.sendRequest` has any receiver name, but never the v2 request object or a server.
      return last !== MCP_REQ_SEGMENT;
    case 'tasks':
      return last === 'tasks' && receiver[receiver.length - 2] === 'experimental';
  }
}

/** Raw send/sendRequest/request: the spec method literal decides, or (v1) the result schema. */
function kindOfRawRequest(shape: CallShape): SiteKind | undefined {
  if (shape.methodLiteral !== undefined) return SPEC_METHODS[shape.methodLiteral];
  if (shape.resultSchemaName !== undefined) return RESULT_SCHEMAS[shape.resultSchemaName];
  return undefined;
}

/** Handler registrations on `McpServer` (v1 and v2), by method name. The callback is the last argument. */
export const REGISTRATION_METHODS: Readonly<Record<string, HandlerKind>> = {
  registerTool: 'tool',
  tool: 'tool',
  registerPrompt: 'prompt',
  prompt: 'prompt',
  registerResource: 'resource',
  resource: 'resource',
};

/** Request methods whose handlers may return `input_required` (spec: tools/call, prompts/get, resources/read). */
export const ELIGIBLE_REQUEST_METHODS: Readonly<Record<string, HandlerKind>> = {
  'tools/call': 'tool',
  'prompts/get': 'prompt',
  'resources/read': 'resource',
};

/** v1 request schemas passed to `setRequestHandler`, by the spec method they stand for (eligible ones). */
export const ELIGIBLE_REQUEST_SCHEMAS: Readonly<Record<string, string>> = {
  CallToolRequestSchema: 'tools/call',
  GetPromptRequestSchema: 'prompts/get',
  ReadResourceRequestSchema: 'resources/read',
};

/** Low-level registration method; first argument is a method string (v2) or a request schema (v1). */
export const SET_REQUEST_HANDLER = 'setRequestHandler';

/** Other server-side entry points where a legacy request cannot be served by MRTR. */
export const INELIGIBLE_ENTRY_POINTS = {
  notificationRegistration: 'setNotificationHandler',
  lifecycleHooks: ['oninitialized', 'onclose', 'onerror'] as readonly string[],
  timers: ['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask'] as readonly string[],
} as const;

/** Packages whose imports make a file an MCP server (or client) file. */
export const SDK_PACKAGES = {
  v2Server: '@modelcontextprotocol/server',
  v2Core: '@modelcontextprotocol/core',
  v2Client: '@modelcontextprotocol/client',
  v1: '@modelcontextprotocol/sdk',
} as const;

/** v1 module paths: server side vs client side. */
export const V1_SERVER_MODULE_PREFIX = '@modelcontextprotocol/sdk/server/';
export const V1_CLIENT_MODULE_PREFIX = '@modelcontextprotocol/sdk/client/';

/** The MRTR API of `@modelcontextprotocol/server` >= 2.4 that ported code uses. */
export const MRTR_API = {
  inputRequired: 'inputRequired',
  builders: { elicitation: 'elicit', elicitationUrl: 'elicitUrl', sampling: 'createMessage', roots: 'listRoots' },
  inputResponse: 'inputResponse',
  acceptedContent: 'acceptedContent',
  inputResponsesPath: ['mcpReq', 'inputResponses'] as readonly string[],
  requestStatePath: ['mcpReq', 'requestState'] as readonly string[],
  resultType: 'input_required',
  codecFactory: 'createRequestStateCodec',
} as const;

/** Elicitation answers a port must keep distinct. */
export const ELICIT_ACTIONS = ['accept', 'decline', 'cancel'] as const;

/** Marker comments written by `port` and read by `check` and `no-unresolved-port-marker`. */
export const MARKERS = {
  todo: '@mrtr-port-todo',
  ignore: '@mrtr-port-ignore',
  /** The official v1→v2 codemod's marker, left at helper call sites it could not migrate. */
  sdkCodemod: '@mcp-codemod-error',
} as const;

/**
 * The functions a ported file calls from the flow runtime (`src/runtime/mrtr-flow.ts`, docs/engine.md):
 * the plan emits them, the transforms import them, the rules recognise them.
 */
export const FLOW_RUNTIME_NAMES = [
  'resumable',
  'once',
  'binding',
  'elicit',
  'sample',
  'listRoots',
  'inputRequest',
  'urlElicitationRequired',
  'isSuspension',
  'suspended',
  'clientCapabilities',
] as const;
export type FlowRuntimeName = (typeof FLOW_RUNTIME_NAMES)[number];
/** The runtime calls that ask the client (each may end the round with input_required). */
export const FLOW_ASK_NAMES = ['elicit', 'sample', 'listRoots', 'inputRequest', 'urlElicitationRequired'] as const satisfies readonly FlowRuntimeName[];

/** Environment variables of the runtime contract of ported servers. */
export const RUNTIME_ENV = {
  keys: 'MRTR_STATE_KEYS',
  ttl: 'MRTR_STATE_TTL_SECONDS',
  audience: 'MRTR_STATE_AUDIENCE',
  roots: 'MCP_ALLOWED_ROOTS',
  claimsRedisUrl: 'MRTR_CLAIMS_REDIS_URL',
} as const;
