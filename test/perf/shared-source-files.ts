/**
 * A compiler host whose programs share parsed and bound source files (lib files, @types/node, the server
 * package): type-check tests build several programs, and parsing those files again for each was a large
 * share of their time. TypeScript's document registry keys each file by the options that change how it is
 * parsed or bound, and by a version: here the text's hash, so a file rewritten between programs is parsed
 * anew.
 */
import { createHash } from 'node:crypto';
import ts from '../../src/typescript.cjs';

const registry = ts.createDocumentRegistry();

export function sharingCompilerHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (fileName, languageVersionOrOptions) => {
    const text = host.readFile(fileName);
    if (text === undefined) return undefined;
    const version = createHash('sha1').update(text).digest('hex');
    return registry.acquireDocument(fileName, options, ts.ScriptSnapshot.fromString(text), version, undefined, languageVersionOrOptions);
  };
  return host;
}
