// requestState attacks on servers ported with `--codec sdk` (the SDK's createRequestStateCodec, HMAC).
import { defineAttackSuite } from './attack-suite.js';

defineAttackSuite('sdk');
