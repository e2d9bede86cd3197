import { ESLintUtils } from '@typescript-eslint/utils';

export interface MrtrRuleDocs {
  description: string;
  /** In `configs.recommended` (and so in `strict`), or only in `strict`. */
  recommended: 'recommended' | 'strict';
  requiresTypeChecking: false;
}

/** Every rule is built here, so none can ship without its docs address. */
export const createRule = ESLintUtils.RuleCreator<MrtrRuleDocs>(
  (name) => `https://github.com/mrtr-port/mrtr-port/blob/main/docs/rules/${name}.md`,
);
