// requestState attacks on servers ported with the default continuation (AES-256-GCM, `--codec aead`).
import { defineAttackSuite } from './attack-suite.js';

defineAttackSuite('aead');
