// Types of typescript.cjs: the compiler's own (its exports, loaded on first use).
import ts = require('typescript');
export = ts;
