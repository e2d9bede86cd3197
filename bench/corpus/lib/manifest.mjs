// Loads and checks the corpus labels: one JSON file per repository under bench/corpus/labels/.
// A bad file stops the run with a message naming the file and the field, before anything runs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const VERDICTS = ['auto', 'manual', 'unportable', 'guarded', 'not-a-site'];
export const KINDS = ['elicitation', 'sampling', 'roots'];
export const FORMS = ['elicitInput', 'createMessage', 'requestSampling', 'listRoots', 'send', 'sendRequest', 'request', 'url-elicitation-error', 'alias'];

export class ManifestError extends Error {}

/** Every labels file in `dir`, checked; sorted corpus repos first, then dev trees. */
export function loadManifest(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) throw new ManifestError(`${dir}: no labels file (*.json)`);
  const repos = files.map((f) => checkRepo(JSON.parse(readFileSync(join(dir, f), 'utf8')), f));
  const names = new Set();
  const ids = new Set();
  for (const r of repos) {
    if (names.has(r.tree)) throw new ManifestError(`${r.file}: ${r.tree} is labelled twice (give the second entry its own "tree" name)`);
    names.add(r.tree);
    for (const s of r.sites) {
      if (ids.has(s.id)) throw new ManifestError(`${r.file}: site id ${s.id} is used twice`);
      ids.add(s.id);
    }
  }
  return repos.sort((a, b) => Number(a.dev) - Number(b.dev) || a.tree.localeCompare(b.tree));
}

function checkRepo(raw, file) {
  const where = (field) => `${file}: ${field}`;
  const need = (cond, field, what) => {
    if (!cond) throw new ManifestError(`${where(field)} ${what}`);
  };
  need(raw && typeof raw === 'object', '(root)', 'must be an object');
  need(typeof raw.repo === 'string' && /^[\w.-]+\/[\w.-]+$/.test(raw.repo), 'repo', 'must be "owner/name"');
  need(typeof raw.commit === 'string' && /^[0-9a-f]{40}$/.test(raw.commit), 'commit', 'must be 40 hex digits');
  need(raw.tree === undefined || (typeof raw.tree === 'string' && raw.tree.length > 0), 'tree', 'must be a non-empty name');
  need(raw.include === undefined || (Array.isArray(raw.include) && raw.include.every((p) => typeof p === 'string')), 'include', 'must be a list of paths');
  need(raw.heldOut === undefined || typeof raw.heldOut === 'boolean', 'heldOut', 'must be true or false');
  need(Array.isArray(raw.sites), 'sites', 'must be a list');
  const sites = raw.sites.map((s, i) => {
    const f = (name) => `sites[${i}]${s?.id ? ` (${s.id})` : ''}.${name}`;
    need(s && typeof s === 'object', `sites[${i}]`, 'must be an object');
    need(typeof s.id === 'string' && s.id.length > 0, f('id'), 'must be a non-empty string');
    need(s.repo === undefined || s.repo === raw.repo, f('repo'), `must be ${raw.repo}`);
    need(s.commit === undefined || s.commit === raw.commit, f('commit'), `must be the repository's commit ${raw.commit}`);
    need(typeof s.path === 'string' && !s.path.startsWith('/'), f('path'), 'must be a relative path');
    need(Number.isInteger(s.line) && s.line >= 1, f('line'), 'must be a 1-based line number');
    need(VERDICTS.includes(s.verdict), f('verdict'), `must be one of ${VERDICTS.join(', ')}`);
    need(s.verdict === 'not-a-site' || KINDS.includes(s.kind), f('kind'), `must be one of ${KINDS.join(', ')}`);
    need(s.form === undefined || FORMS.includes(s.form), f('form'), `must be one of ${FORMS.join(', ')}`);
    need(typeof s.reason === 'string' && s.reason.length > 0, f('reason'), 'must say why');
    need(s.handler === null || s.handler === undefined || (typeof s.handler === 'object' && typeof s.handler.kind === 'string'), f('handler'), 'must be null or { kind, name }');
    return { ...s, test: s.test === true, handler: s.handler ?? null };
  });
  return {
    file,
    name: raw.repo,
    // The entry's own name: the repository, or e.g. "owner/name@v1.x" for a second branch of it.
    tree: raw.tree ?? raw.repo,
    author: raw.author ?? raw.repo.split('/')[0],
    commit: raw.commit,
    include: raw.include ?? [],
    dev: raw.dev === true,
    // Labelled before the tool first ran on it, and not used to tune the tool: scored on its own too.
    heldOut: raw.heldOut === true,
    notes: raw.notes ?? '',
    sites,
  };
}
