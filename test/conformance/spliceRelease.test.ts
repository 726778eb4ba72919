import { describe, expect, it } from 'vitest';
import { spliceLacks } from '../../conformance/src/checks/support/targetVersion.js';

const ROUND = 'getRewardAccountingEarliestAvailableRound';
const LEGACY = 'getRewardAccountingEarliestAvailableRoundLegacy';

describe('spliceLacks: the Scan operations a Splice release has', () => {
  it('judges a Scan that says no release as having every operation (the newest)', () => {
    expect(spliceLacks(undefined, ROUND)).toBeUndefined();
    expect(spliceLacks(undefined, LEGACY)).toBeUndefined();
    expect(spliceLacks('dev', ROUND)).toBeUndefined();
  });

  it('0.6.0-0.6.4 serve the earliest round at the old path only, 0.6.5 and later under /v0/internal/ only', () => {
    expect(spliceLacks('0.6.4', ROUND)).toMatch(/came with Splice 0\.6\.5/);
    expect(spliceLacks('0.6.4', LEGACY)).toBeUndefined();
    expect(spliceLacks('0.6.0', LEGACY)).toBeUndefined();
    expect(spliceLacks('0.6.5', ROUND)).toBeUndefined();
    expect(spliceLacks('0.6.5-SNAPSHOT', ROUND)).toBeUndefined();
    expect(spliceLacks('0.6.12', LEGACY)).toMatch(/Splice 0\.6\.4 was the last release/);
    expect(spliceLacks('1.0.0', ROUND)).toBeUndefined();
  });

  it('a release before 0.6.0 has the earliest round at neither path', () => {
    expect(spliceLacks('0.5.5', ROUND)).toBeDefined();
    expect(spliceLacks('0.5.5', LEGACY)).toMatch(/came with Splice 0\.6\.0/);
  });

  it('operations every release has are never lacked', () => {
    expect(spliceLacks('0.4.0', 'lookupTransferPreapprovalByParty')).toBeUndefined();
  });
});
