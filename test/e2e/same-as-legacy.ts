/**
 * What every e2e scenario asserts of a ported run against its legacy original (v2 and v1 fixtures alike):
 * the same result and the same effects, exactly once; every retry echoes the state and lands on the other
 * replica; and the rounds the scenario calls for.
 */
import { expect } from 'vitest';
import type { SideEffect } from './contract.js';
import { comparable, type E2eFixture, type Outcome, type ScenarioName } from './fixtures.js';
import { untagged, type AskCounts, type RoutedRequest } from './harness.js';

const CALL_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

export interface LegacyRun {
  readonly result: Outcome;
  readonly effects: readonly SideEffect[];
  readonly asks: AskCounts;
}

export interface PortedRun extends LegacyRun {
  readonly routed: readonly RoutedRequest[];
  readonly era: string | undefined;
}

export function expectSameAsLegacy(fixture: E2eFixture, scenario: ScenarioName, expectedText: string, legacyRun: LegacyRun, portedRun: PortedRun): void {
  const legacy = comparable(fixture, legacyRun.result, legacyRun.effects);
  expect(legacy.result.error).toBeUndefined();
  expect(legacy.result.texts.join('\n')).toContain(expectedText);

  const ported = { ...portedRun, ...comparable(fixture, portedRun.result, untagged(portedRun.effects)) };
  expect(ported.era).toBe('modern');
  expect(ported.result).toEqual(legacy.result);
  // same effects, same count, same values: exactly once per completed call, in the legacy order
  expect(ported.effects).toEqual(legacy.effects);

  const rounds = ported.routed.filter((r) => r.method !== undefined && CALL_METHODS.has(r.method));
  for (let i = 1; i < rounds.length; i++) {
    // every retry echoes the state and is served by the other replica than the round before
    expect(rounds[i].hasRequestState).toBe(true);
    expect(rounds[i].replica).not.toBe(rounds[i - 1].replica);
  }

  if (scenario === 'roots') {
    expect(legacyRun.asks.roots).toBe(1);
    expect(ported.asks.roots).toBe(0); // retired to configuration: no round at all
    expect(rounds).toHaveLength(1);
  } else if (scenario === 'no-elicitation') {
    expect(ported.asks).toEqual({ elicit: 0, sample: 0, roots: 0 }); // the fallback, in one round
    expect(rounds).toHaveLength(1);
  } else if (scenario === 'invalid-then-valid') {
    expect(ported.asks.elicit).toBeGreaterThan(legacyRun.asks.elicit); // the invalid answer was asked again
    expect(rounds.length).toBeGreaterThanOrEqual(3);
  } else {
    expect(ported.asks).toEqual(legacyRun.asks);
    expect(rounds.length).toBeGreaterThanOrEqual(2);
    // independent asks share a round; dependent ones take one each
    if (scenario === 'accept' && fixture.acceptRounds !== undefined) expect(rounds).toHaveLength(fixture.acceptRounds);
  }
}
