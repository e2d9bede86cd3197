/**
 * Keeps the official codemod from taking a v1 registration's description for its schema.
 *
 * The codemod (2.3.1) tells `server.tool(name, description, paramsSchema, cb)` from
 * `server.tool(name, paramsSchema, annotations, cb)` by the second argument's syntax: only a string
 * literal or a template counts as a description. A description written as a concatenation
 * (`'List properties. ' + 'Default limit 10.'`, common for long ones) or held in a const (`DESCRIPTION`)
 * is taken for the schema: `registerTool(name, { inputSchema: 'List…' + '…', annotations: Schema.shape }, cb)`,
 * which no longer type-checks and registers a tool whose input schema is a string
 * (sharpsir-group/qobrix-crm-mcp: about seventy tools). The same holds for `server.prompt(name,
 * description, argsSchema, cb)`.
 *
 * Before the transforms run, such an argument is replaced by a template literal placeholder with as
 * many lines (so no line moves, and the indentation pass never touches it: its lines are inside a
 * literal); the codemod copies it as the description; afterwards each placeholder gets its text back.
 * Only an argument shown to be a string counts: literals and templates joined with `+` (parenthesized
 * or not), or a const of this file initialized with one.
 */
import type * as TS from 'typescript';
import ts from '../typescript.cjs';

/** The v1 registration methods whose description the codemod recognizes only as a literal. */
const DESCRIBED_METHODS: ReadonlySet<string> = new Set(['tool', 'prompt']);

const PLACEHOLDER = (i: number): string => `__mrtrPortDescription${i}__`;

export interface ShieldedDescriptions {
  text: string;
  /** `migrated` with every placeholder back to the user's text. */
  restore(migrated: string): string;
}

export function shieldDescriptions(text: string, path: string): ShieldedDescriptions {
  const unchanged: ShieldedDescriptions = { text, restore: (migrated) => migrated };
  if (!/\.\s*(?:tool|prompt)\s*\(/.test(text) || text.includes(PLACEHOLDER(0).slice(0, -3))) return unchanged;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(path));
  const consts = stringConsts(sf);
  const found: { start: number; end: number; original: string }[] = [];
  const visit = (n: TS.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && DESCRIBED_METHODS.has(n.expression.name.text) && n.arguments.length >= 3) {
      const arg = n.arguments[1];
      if (!isLiteralOrTemplate(arg) && isProvablyString(arg, consts)) found.push({ start: arg.getStart(sf), end: arg.getEnd(), original: text.slice(arg.getStart(sf), arg.getEnd()) });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  if (found.length === 0) return unchanged;
  let out = '';
  let from = 0;
  const placeholders: { placeholder: string; original: string }[] = [];
  found.forEach((f, i) => {
    // as many lines as the argument had: the lines after it keep their numbers
    const placeholder = `\`${PLACEHOLDER(i)}${'\n'.repeat((f.original.match(/\n/g) ?? []).length)}\``;
    placeholders.push({ placeholder, original: f.original });
    out += text.slice(from, f.start) + placeholder;
    from = f.end;
  });
  out += text.slice(from);
  return {
    text: out,
    restore: (migrated) => placeholders.reduce((acc, p) => acc.split(p.placeholder).join(p.original), migrated),
  };
}

function scriptKind(path: string): TS.ScriptKind {
  if (/\.tsx$/.test(path)) return ts.ScriptKind.TSX;
  if (/\.(m|c)?js$/.test(path)) return ts.ScriptKind.JS;
  if (/\.jsx$/.test(path)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.TS;
}

/** What the codemod already takes for a description. */
function isLiteralOrTemplate(n: TS.Expression): boolean {
  return ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n);
}

/** Literals and templates joined by `+`, or a const of `consts`. */
function isProvablyString(n: TS.Expression, consts: ReadonlySet<string>): boolean {
  if (ts.isParenthesizedExpression(n)) return isProvablyString(n.expression, consts);
  if (isLiteralOrTemplate(n)) return true;
  if (ts.isIdentifier(n)) return consts.has(n.text);
  return ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken && isProvablyString(n.left, consts) && isProvablyString(n.right, consts);
}

/**
 * Names of the file's top-level consts initialized with a string expression, declared once (a name
 * declared again anywhere in the file could be shadowed where it is read: left out).
 */
function stringConsts(sf: TS.SourceFile): ReadonlySet<string> {
  const declared = new Map<string, number>();
  const count = (n: TS.Node): void => {
    if ((ts.isVariableDeclaration(n) || ts.isParameter(n) || ts.isBindingElement(n)) && ts.isIdentifier(n.name)) declared.set(n.name.text, (declared.get(n.name.text) ?? 0) + 1);
    ts.forEachChild(n, count);
  };
  count(sf);
  const out = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const st of sf.statements) {
      if (!ts.isVariableStatement(st) || !(st.declarationList.flags & ts.NodeFlags.Const)) continue;
      for (const d of st.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || !d.initializer || out.has(d.name.text) || declared.get(d.name.text) !== 1) continue;
        if (isProvablyString(d.initializer, out)) {
          out.add(d.name.text);
          changed = true;
        }
      }
    }
  }
  return out;
}
