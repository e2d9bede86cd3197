/**
 * Parsed and bound source files shared by every program this process builds. A program parses the lib
 * files, `@types/node` and the packages a file imports (the MCP SDK, zod): for a one-file analysis (the
 * transforms' `planOfFileAlone`, an embedder porting file by file) that was most of its time, paid again
 * for every file. TypeScript's document registry keys a file by the options that change how it is parsed
 * or bound and by a version, here the text's hash: a file whose text changed is parsed anew.
 */
import { createHash } from 'node:crypto';
import ts from '../typescript.cjs';

// one registry per JSDoc parsing mode: a registry parses every file it holds in one mode
const registries = new Map<ts.JSDocParsingMode | undefined, ts.DocumentRegistry>();

/** The registry's tree of `fileName` with this text, parsed for these options (shared when another program already has it). */
export function acquireSharedSourceFile(
  fileName: string,
  text: string,
  options: ts.CompilerOptions,
  languageVersionOrOptions: ts.ScriptTarget | ts.CreateSourceFileOptions,
): ts.SourceFile {
  const version = createHash('sha1').update(text).digest('hex');
  const mode = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions.jsDocParsingMode : undefined;
  let registry = registries.get(mode);
  if (!registry) registries.set(mode, (registry = ts.createDocumentRegistry(undefined, undefined, mode)));
  return registry.acquireDocument(fileName, options, ts.ScriptSnapshot.fromString(text), version, undefined, languageVersionOrOptions);
}

let libFolder: string | undefined;

/**
 * Files that stay as they are while a process runs: the compiler's lib files and everything under a
 * `node_modules` folder. Only those are worth keeping (a user's own files change between analyses).
 */
export function isStableDeclarationPath(fileName: string): boolean {
  // the compiler names files with forward slashes on every platform
  libFolder ??= ts.getDefaultLibFilePath({}).replace(/[^/]*$/, '');
  return fileName.startsWith(libFolder) || fileName.includes('/node_modules/');
}
