/**
 * The AmuletRules configuration the world is built with on Splice's own splice-amulet: Splice's
 * test defaults (splice-amulet-test's `defaultAmuletConfigSchedule`) with the fees CIP-0078 set
 * to zero (create, transfer and lock-holder fees; splice-amulet 0.1.22's `validAmuletConfig`
 * requires it), the ports' 10-minute tick, the ledger's first synchronizer as the active one,
 * and the synchronizer fees a network (and LocalNet) runs with: Splice's SV app defaults
 * (SynchronizerFeesConfig: 16.67 USD per MB of extra traffic, a 200,000-byte minimum top-up,
 * a 200,000-byte base-rate burst over 20 minutes), which the ports charge too.
 * Fields are fitted to the loaded package's AmuletConfig and TransferConfig records: a field the
 * package does not declare is left out, so one configuration serves LocalNet's 0.1.14 and 0.1.22.
 */
import type { DamlRecord, Ledger } from '../../ledger/index.js';

export const TICK_MICROS = 600_000_000n;

const issuance = (amuletToIssuePerYear: string, validatorRewardPercentage: string, appRewardPercentage: string): DamlRecord => ({
  amuletToIssuePerYear,
  validatorRewardPercentage,
  appRewardPercentage,
  validatorRewardCap: '0.2',
  featuredAppRewardCap: '100.0',
  unfeaturedAppRewardCap: '0.6',
  optValidatorFaucetCap: null,
});
const YEAR_MICROS = 31_536_000_000_000n;

/** The record's field names in the package, or undefined when the package has no such record (or is built in). */
function fieldsOf(ledger: Ledger, packageId: string | undefined, module: string, name: string): ReadonlySet<string> | undefined {
  if (packageId === undefined) return undefined;
  const def = ledger.engine.packages.dataTypes.dataType({ packageId, module, name });
  return def?.kind === 'record' ? new Set(def.fields.map((f) => f.name)) : undefined;
}

const fitted = (value: DamlRecord, fields: ReadonlySet<string> | undefined): DamlRecord =>
  fields === undefined ? value : Object.fromEntries(Object.entries(value).filter(([k]) => fields.has(k)));

/**
 * The configuration schedule (`configSchedule`) of the AmuletRules, for the package `packageId`
 * (undefined: the built-in model, which takes every field).
 */
export function amuletConfigSchedule(ledger: Ledger, packageId: string | undefined, packageVersion: string): DamlRecord {
  const transferConfig = fitted(
    {
      createFee: { fee: '0.0' },
      holdingFee: { rate: '0.00002' },
      transferFee: { initialRate: '0.0', steps: [{ _1: '100.0', _2: '0.0' }, { _1: '1000.0', _2: '0.0' }, { _1: '1000000.0', _2: '0.0' }] },
      lockHolderFee: { fee: '0.0' },
      extraFeaturedAppRewardAmount: '1.0',
      maxNumInputs: '100',
      maxNumOutputs: '100',
      maxNumLockHolders: '10',
    },
    fieldsOf(ledger, packageId, 'Splice.AmuletConfig', 'TransferConfig'),
  );
  const synchronizer = ledger.config.synchronizers[0].id;
  const config = fitted(
    {
      transferConfig,
      issuanceCurve: {
        initialValue: issuance('40000000000.0', '0.05', '0.15'),
        futureValues: [
          { _1: { microseconds: (YEAR_MICROS / 2n).toString() }, _2: issuance('20000000000.0', '0.12', '0.4') },
          { _1: { microseconds: ((YEAR_MICROS * 3n) / 2n).toString() }, _2: issuance('10000000000.0', '0.18', '0.62') },
          { _1: { microseconds: (YEAR_MICROS * 5n).toString() }, _2: issuance('5000000000.0', '0.21', '0.69') },
          { _1: { microseconds: (YEAR_MICROS * 10n).toString() }, _2: issuance('2500000000.0', '0.2', '0.75') },
        ],
      },
      decentralizedSynchronizer: {
        requiredSynchronizers: { map: [[synchronizer, {}]] },
        activeSynchronizer: synchronizer,
        fees: { baseRateTrafficLimits: { burstAmount: '200000', burstWindow: { microseconds: '1200000000' } }, extraTrafficPrice: '16.67', readVsWriteScalingFactor: '4', minTopupAmount: '200000' },
      },
      tickDuration: { microseconds: TICK_MICROS.toString() },
      packageConfig: { amulet: packageVersion, amuletNameService: '0.1.0', dsoGovernance: '0.1.0', validatorLifecycle: '0.1.0', wallet: '0.1.0', walletPayments: '0.1.0' },
      transferPreapprovalFee: '0.00274',
      // Optional in the packages that have it; 0.1.22 requires it equal to the extra featured app reward.
      featuredAppActivityMarkerAmount: '1.0',
    },
    fieldsOf(ledger, packageId, 'Splice.AmuletConfig', 'AmuletConfig'),
  );
  return { initialValue: config, futureValues: [] };
}
