import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseSize } from '../../src/cli/options.js';

describe('parseSize (--max-file-size)', () => {
  it('reads bytes and binary units', () => {
    expect(parseSize('4096')).toBe(4096);
    expect(parseSize('512k')).toBe(512 * 1024);
    expect(parseSize('8M')).toBe(8 * 1024 * 1024);
    expect(parseSize('1.5MiB')).toBe(1.5 * 1024 * 1024);
    expect(parseSize('2 GB')).toBe(2 * 1024 ** 3);
  });

  it('rejects anything else as a usage error', () => {
    for (const bad of ['', 'big', '-1', '0', '4 MB2', '1e6']) expect(() => parseSize(bad), bad).toThrow(InvalidArgumentError);
  });
});
