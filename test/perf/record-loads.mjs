// Preload for the start-up test (`node --import <this>`): records every module the process loads, ESM
// (through a load hook) and CommonJS (require.cache at exit), one path per line in $MRTR_LOAD_LOG.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const log = process.env.MRTR_LOAD_LOG;
if (!log) throw new Error('record-loads.mjs needs MRTR_LOAD_LOG');
register('./record-loads-hook.mjs', import.meta.url);
const require = createRequire(import.meta.url);
process.on('exit', () => {
  appendFileSync(log, Object.keys(require.cache).join('\n') + '\n');
});
