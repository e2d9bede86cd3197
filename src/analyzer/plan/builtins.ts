/**
 * Globals whose calls are deterministic and have no effect by specification: they re-run on every
 * round and give the same value, so the plan never memoizes them. This is a list of the language's
 * own functions, not of names that "sound like reads": a user function is always judged by what it
 * is (a call of something outside the function: memoized).
 */

/** `String(x)`, `parseInt(s)`, … */
export const PURE_GLOBAL_FUNCTIONS: ReadonlySet<string> = new Set([
  'String',
  'Number',
  'Boolean',
  'BigInt',
  'Symbol',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'encodeURIComponent',
  'decodeURIComponent',
  'encodeURI',
  'decodeURI',
  'escape',
  'unescape',
  'structuredClone',
  'atob',
  'btoa',
]);

/** `JSON.stringify(x)`, `Math.max(…)`: static methods of built-in namespaces, by namespace. */
export const PURE_STATIC_METHODS: Readonly<Record<string, ReadonlySet<string> | 'all-but'>> = {
  JSON: new Set(['stringify', 'parse']),
  Object: new Set(['keys', 'values', 'entries', 'fromEntries', 'is', 'freeze', 'isFrozen', 'getOwnPropertyNames', 'hasOwn', 'create', 'getPrototypeOf']),
  Array: new Set(['isArray', 'of', 'from']),
  Number: new Set(['isInteger', 'isFinite', 'isNaN', 'isSafeInteger', 'parseFloat', 'parseInt']),
  String: new Set(['fromCharCode', 'fromCodePoint', 'raw']),
  Date: new Set(['UTC', 'parse']),
  Promise: new Set(['resolve', 'reject']),
  Buffer: new Set(['from', 'isBuffer', 'byteLength', 'concat', 'alloc']),
  Symbol: new Set(['for']),
};

/** `Math.*` is pure but for `Math.random`. */
export const MATH_IMPURE: ReadonlySet<string> = new Set(['random']);

/** The runtime's timer functions (Node, browsers, workers): each call starts a timer that outlives the call. */
export const TIMER_STARTS: ReadonlySet<string> = new Set(['setInterval', 'setTimeout', 'setImmediate']);

/** The names the global object goes by (`globalThis.setTimeout(…)`). */
export const GLOBAL_OBJECTS: ReadonlySet<string> = new Set(['globalThis', 'global', 'window', 'self']);

/** Classes whose construction is deterministic and effect-free (`new Map()`, `new Error(msg)`). `new Date()` without arguments is not. */
export const PURE_CONSTRUCTORS: ReadonlySet<string> = new Set([
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Array',
  'Object',
  'URLSearchParams',
  'URL',
  'RegExp',
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'AggregateError',
  'Uint8Array',
  'Int8Array',
  'Uint16Array',
  'Int16Array',
  'Uint32Array',
  'Int32Array',
  'Float32Array',
  'Float64Array',
  'ArrayBuffer',
  'TextEncoder',
  'TextDecoder',
  'Date',
]);

/** Collections a function builds its own local state with (`const seen = new Set()`): method calls on them re-run. */
export const LOCAL_COLLECTIONS: ReadonlySet<string> = new Set(['Map', 'Set', 'Array', 'Object', 'URLSearchParams', 'URL', 'Date', 'Uint8Array']);


/** Built-in methods that change their receiver in place (by specification), by the built-in. */
export const BUILTIN_MUTATORS: Readonly<Record<string, readonly string[]>> = {
  Array: ['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin'],
  Map: ['set', 'delete', 'clear'],
  WeakMap: ['set', 'delete'],
  Set: ['add', 'delete', 'clear'],
  WeakSet: ['add', 'delete'],
};

/** Every method name in `BUILTIN_MUTATORS`, of any built-in. */
export const BUILTIN_MUTATOR_NAMES: ReadonlySet<string> = new Set(Object.values(BUILTIN_MUTATORS).flat());

/** `Date`'s setters: each changes the date in place. */
export const DATE_SETTERS: readonly string[] = [
  ...['FullYear', 'Month', 'Date', 'Hours', 'Minutes', 'Seconds', 'Milliseconds'].flatMap((part) => [`set${part}`, `setUTC${part}`]),
  'setTime',
  'setYear',
];

/**
 * Built-in collection writes that leave the collection as it was when made again with the same arguments,
 * by method: the port makes them again on each round (as a plain assignment), and the lint rule accepts
 * them before an ask. `push`, `unshift`, `splice` add again: not here.
 */
export const REPLAYED_COLLECTION_WRITES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['set', new Set(['Map', 'WeakMap'])],
  ['add', new Set(['Set', 'WeakSet'])],
  ['delete', new Set(['Map', 'Set', 'WeakMap', 'WeakSet'])],
]);
