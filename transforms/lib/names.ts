/** Fresh identifiers that collide with nothing already in the file or already handed out. */
import { identifierNames, type Node } from './ast.js';

export class NameScope {
  private readonly taken: Set<string>;

  constructor(program: Node) {
    this.taken = identifierNames(program);
  }

  /** Marks a name as used without renaming it (a name the handler already owns). */
  claim(name: string): void {
    this.taken.add(name);
  }

  /** `base`, or `base2`, `base3`, … when taken. */
  fresh(base: string): string {
    let name = base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}${i}`;
    this.taken.add(name);
    return name;
  }
}
