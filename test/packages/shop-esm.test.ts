// fixtures/packages/shop-esm, a legacy ES module JavaScript package ("type": "module"), through the real
// CLI to two replica processes run with plain node.
import { describePortedPackage } from './legacy-vs-ported.js';

describePortedPackage({
  name: 'shop-esm',
  modules: 'esm',
  serverModule: 'src/server.js',
  factory: 'createServer',
  stdioEntry: 'src/index.js',
  ledgerVariable: 'SHOP_LEDGER',
  helperDir: 'src/tools',
  helperExtension: '.js',
  portedFiles: ['src/tools/describe.js', 'src/tools/export.js', 'src/tools/refund.js'],
  reviewMarkers: ['src/tools/export.js: capability-fallback'],
  calls: [
    {
      name: 'refund',
      call: { kind: 'tool', name: 'refund_order', arguments: { orderId: 'A-1001', amount: 42.5 } },
      scenarios: {
        accept: 'Refunded 42.5 EUR on A-1001 as',
        decline: 'not confirmed (decline)',
        cancel: 'cancelled',
        'invalid-then-valid': 'Refunded 42.5 EUR on A-1001 as',
      },
      valid: { confirm: true },
      invalid: { confirm: 'yes' },
      normalize: 'uuids',
    },
    {
      name: 'describe',
      call: { kind: 'tool', name: 'describe_product', arguments: { sku: 'MUG-7' } },
      scenarios: { sampled: 'Saved blurb for MUG-7: Revenue grew 12%' },
    },
    {
      name: 'export',
      call: { kind: 'tool', name: 'export_orders', arguments: { month: '2026-11' } },
      scenarios: { accept: 'Exported 2026-11 as xlsx', cancel: 'Export of 2026-11 cancelled', 'no-elicitation': 'Exported 2026-11 as csv' },
      valid: { format: 'xlsx' },
    },
  ],
});
