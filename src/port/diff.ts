/**
 * Unified diffs for `port --dry-run`: `a/`/`b/` paths like git, a new file (the continuation helper)
 * as a diff from /dev/null.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/** `rel` is the file's path relative to the working directory, `/`-separated. Empty when equal. */
export function fileDiff(rel: string, before: string, after: string): string {
  if (before === after) return '';
  return createTwoFilesPatch(`a/${rel}`, `b/${rel}`, before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
}

export function newFileDiff(rel: string, text: string): string {
  return createTwoFilesPatch('/dev/null', `b/${rel}`, '', text, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
}
