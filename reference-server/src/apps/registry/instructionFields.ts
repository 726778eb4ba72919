import type { DamlRecord, DamlValue } from '../../ledger/index.js';

const record = (v: DamlValue | undefined): DamlRecord => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as DamlRecord) : {});

/** The party whose holdings an allocation instruction allocates (it accepts or withdraws). */
export const authorizerOf = (instruction: DamlRecord): string => record(instruction.allocation).authorizer as string;

export const executorsOf = (instruction: DamlRecord): string[] => (record(instruction.settlement).executors ?? []) as string[];

/** The one instrument an instruction moves (all legs share it; the template's `ensure` checks). */
export const instrumentOf = (instruction: DamlRecord): string =>
  (((record(instruction.allocation).transferLegSides ?? []) as DamlRecord[])[0]?.instrumentId as string | undefined) ?? '';
