import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/no-unresolved-port-marker.js';

const ruleTester = new RuleTester();

ruleTester.run('no-unresolved-port-marker', rule, {
  valid: [
    // Valid because: no marker at all.
    `const a = 1;`,
    // Valid because: acknowledged with @mrtr-port-ignore on the line above.
    `
// @mrtr-port-ignore reviewed: the loop is bounded to one question
/* @mrtr-port-todo(in-loop): unroll it */
await ask();
`,
    // Valid because: the marker text sits in a string, not a comment.
    `const doc = '/* @mrtr-port-todo(in-loop): x */';`,
    // Valid because: a line comment that only mentions the prefix is not a marker (check counts block markers).
    `// grep for @mrtr-port-todo to find what the port left`,
    // Valid because: prose that names a marker is not one: a marker starts its comment.
    `// the codemod writes @mcp-codemod-error markers at helper call sites; mrtr-port writes @mrtr-port-todo(reason): ones
const a = 1; /* the port leaves @mrtr-port-todo(in-loop): markers where a human decides */`,
    // Valid because: an acknowledged line-form marker.
    `// @mrtr-port-ignore roots come from MCP_ALLOWED_ROOTS in every deployment
// @mrtr-port-todo(roots-retired): set MCP_ALLOWED_ROOTS
const { roots } = rootsFromConfig();`,
    // Valid because: codemod markers are opted out.
    {
      code: `/* @mcp-codemod-error The context object is forwarded to confirm(…) */\nconfirm(ctx);`,
      options: [{ includeSdkCodemodMarkers: false }],
    },
  ],
  invalid: [
    // Invalid because: a todo marker the port left; reported at the comment.
    {
      code: `
function f() {
  /* @mrtr-port-todo(in-loop): unroll it into steps */
  return 1;
}
`,
      errors: [{ messageId: 'unresolvedMarker', line: 3, column: 3, endLine: 3, endColumn: 55, data: { reason: 'in-loop', advice: 'unroll it into steps.', ignore: '@mrtr-port-ignore' } }],
    },
    // Invalid because: two markers, two reports; a marker with no text falls back to the reason table.
    {
      code: `/* @mrtr-port-todo(raced): decide the fallback */\nawait a();\n  /* @mrtr-port-todo(timer): */\nb();`,
      errors: [
        { messageId: 'unresolvedMarker', line: 1, column: 1 },
        { messageId: 'unresolvedMarker', line: 3, column: 3 },
      ],
    },
    // Invalid because: acknowledged markers are reported when asked for.
    {
      code: `// @mrtr-port-ignore later\n/* @mrtr-port-todo(raced): decide */\nrun();`,
      options: [{ includeAcknowledged: true }],
      errors: [{ messageId: 'acknowledgedMarker', line: 2, column: 1 }],
    },
    // Invalid because: the official codemod's marker means the call was not migrated.
    {
      code: `/* @mcp-codemod-error The context object is forwarded to confirm(…) */\nconfirm(ctx);`,
      errors: [{ messageId: 'sdkCodemodMarker', line: 1, column: 1 }],
    },
    // Invalid because: a marker trailing a statement on the same line is still a marker.
    {
      code: `const { roots } = rootsFromConfig(); /* @mrtr-port-todo(roots-retired): set MCP_ALLOWED_ROOTS */`,
      errors: [{ messageId: 'unresolvedMarker', line: 1, column: 38, data: { reason: 'roots-retired', advice: 'set MCP_ALLOWED_ROOTS.', ignore: '@mrtr-port-ignore' } }],
    },
    // Invalid because: the line form of a marker (written by hand for retired roots) counts too, as in \`mrtr-port check\`.
    {
      code: `function f() {
  // @mrtr-port-todo(roots-retired): set MCP_ALLOWED_ROOTS for every deployment
  return rootsFromConfig();
}`,
      errors: [{ messageId: 'unresolvedMarker', line: 2, column: 3, endLine: 2, endColumn: 80, data: { reason: 'roots-retired', advice: 'set MCP_ALLOWED_ROOTS for every deployment.', ignore: '@mrtr-port-ignore' } }],
    },
    // Invalid because: the official codemod's marker in a line comment, at the start of the comment.
    {
      code: `// @mcp-codemod-error The context object is forwarded to confirm(…)\nconfirm(ctx);`,
      errors: [{ messageId: 'sdkCodemodMarker', line: 1, column: 1 }],
    },
    // Invalid because: a multi-line marker is one report spanning the comment.
    {
      code: `/* @mrtr-port-todo(dynamic-request):\n   port by hand */\nx();`,
      errors: [{ messageId: 'unresolvedMarker', line: 1, column: 1, endLine: 2, endColumn: 19 }],
    },
  ],
});
