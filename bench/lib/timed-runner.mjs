// The compiled runner for a bench child: `runPort` and its default dependencies, with the analyzer
// and the transform calls timed (`stageMs`), so a bench can show what the runner itself adds.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function loadTimedRunner(dist) {
  const load = (rel) => import(pathToFileURL(join(dist, rel)).href);
  const [{ runPort }, { loadDefaultDependencies }] = await Promise.all([load('src/port/index.js'), load('src/port/dependencies.js')]);
  const loaded = await loadDefaultDependencies();
  const stageMs = { analyze: 0, transform: 0 };
  const timed = (stage, fn) => (...args) => {
    const s = performance.now();
    try {
      return fn(...args);
    } finally {
      stageMs[stage] += performance.now() - s;
    }
  };
  const dependencies = { ...loaded, analyze: timed('analyze', loaded.analyze), transform: timed('transform', loaded.transform) };
  return { runPort, dependencies, stageMs };
}
