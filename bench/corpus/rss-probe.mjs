// Preloaded (`node --import`) into each mrtr-port run the corpus script starts: on exit it writes
// the process's peak resident set size (KiB) to the file named by MRTR_CORPUS_RSS_FILE, so the
// script measures the CLI itself and not its own process.
import { writeFileSync } from 'node:fs';

const target = process.env.MRTR_CORPUS_RSS_FILE;
if (target) {
  process.on('exit', () => {
    try {
      writeFileSync(target, String(process.resourceUsage().maxRSS));
    } catch {
      // A measurement must never change the run it measures.
    }
  });
}
