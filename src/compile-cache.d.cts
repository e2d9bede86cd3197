// Types of compile-cache.cjs.
/** Installs V8's code cache for big CommonJS bundles in this process; the folder it uses, or null when off or unusable. */
export declare function installCompileCache(env?: NodeJS.ProcessEnv): string | true | null;
/** Has this thread installed the cache (a worker the CLI starts installs it too when so)? */
export declare function compileCacheInstalled(): boolean;
/** Files smaller than this compile as usual. */
export declare const MIN_BYTES: number;
