// ESM load hook of record-loads.mjs (runs on the loader thread): appends each loaded URL to $MRTR_LOAD_LOG.
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.MRTR_LOAD_LOG, fileURLToPath(url) + '\n');
  return next(url, context);
}
