import type { Catalogue, ChoiceBody, ContractView, DamlRecord, DamlValue, FieldType } from '../../ledger/index.js';
import { err } from '../../ledger/index.js';
import { unwrapRegistration } from '../unwrapRegistration.js';
import {
  ALLOCATION_FACTORY_V1_INTERFACE,
  ALLOCATION_INSTRUCTION_V1_INTERFACE,
  ALLOCATION_REQUEST_V1_INTERFACE,
  ALLOCATION_V1_INTERFACE,
  ANY_CONTRACT_INTERFACE,
  HOLDING_V1_INTERFACE,
  TRANSFER_FACTORY_V1_INTERFACE,
  TRANSFER_INSTRUCTION_V1_INTERFACE,
} from './ids.js';
import { INTERFACES_V2 } from './interfacesV2.js';
import { ALLOCATION_SPEC_T, EXTRA_ARGS_ARG, EXTRA_ARGS_T, TRANSFER_T } from './types.js';

/** What a template supplies for one interface it implements: the view and the choice bodies. */
export interface Implementation {
  readonly view: (self: ContractView) => DamlValue;
  readonly choices?: Readonly<Record<string, ChoiceBody>>;
}

export interface InterfaceChoice {
  readonly consuming: boolean;
  readonly argument: FieldType;
  /** Controllers from the interface view and the argument, as the Daml interface declares them. */
  readonly controllers: (view: DamlRecord, argument: DamlRecord) => readonly string[];
  /** Choice observers (Daml `observer`), if the interface declares any. */
  readonly observers?: (view: DamlRecord, argument: DamlRecord) => readonly string[];
}

const record = (v: DamlValue | undefined): DamlRecord => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as DamlRecord) : {});
const party = (v: DamlValue | undefined): string => (typeof v === 'string' ? v : '');
const parties = (v: DamlValue | undefined): string[] => (Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : []);

/** allocationControllers: the executor and both sides of the leg. */
const allocationControllers = (view: DamlRecord) => {
  const spec = record(view.allocation);
  const leg = record(spec.transferLeg);
  return [party(record(spec.settlement).executor), party(leg.sender), party(leg.receiver)];
};

/** The v1 interfaces, their choices and controllers (Splice token standard 1.0). */
const INTERFACES_V1: Readonly<Record<string, Readonly<Record<string, InterfaceChoice>>>> = {
  [ANY_CONTRACT_INTERFACE]: {},
  [HOLDING_V1_INTERFACE]: {},
  [TRANSFER_FACTORY_V1_INTERFACE]: {
    TransferFactory_Transfer: {
      consuming: false,
      argument: { record: { expectedAdmin: 'Party', transfer: TRANSFER_T, extraArgs: EXTRA_ARGS_T } },
      controllers: (_v, a) => [party(record(a.transfer).sender)],
    },
    TransferFactory_PublicFetch: {
      consuming: false,
      argument: { record: { expectedAdmin: 'Party', actor: 'Party' } },
      controllers: (_v, a) => [party(a.actor)],
    },
  },
  [TRANSFER_INSTRUCTION_V1_INTERFACE]: {
    TransferInstruction_Accept: { consuming: true, argument: EXTRA_ARGS_ARG, controllers: (v) => [party(record(v.transfer).receiver)] },
    TransferInstruction_Reject: { consuming: true, argument: EXTRA_ARGS_ARG, controllers: (v) => [party(record(v.transfer).receiver)] },
    TransferInstruction_Withdraw: { consuming: true, argument: EXTRA_ARGS_ARG, controllers: (v) => [party(record(v.transfer).sender)] },
    TransferInstruction_Update: {
      consuming: true,
      argument: { record: { extraActors: { list: 'Party' }, extraArgs: EXTRA_ARGS_T } },
      controllers: (v, a) => [party(record(record(v.transfer).instrumentId).admin), ...parties(a.extraActors)],
    },
  },
  [ALLOCATION_V1_INTERFACE]: {
    Allocation_ExecuteTransfer: { consuming: false, argument: EXTRA_ARGS_ARG, controllers: allocationControllers },
    Allocation_Cancel: { consuming: false, argument: EXTRA_ARGS_ARG, controllers: allocationControllers },
    Allocation_Withdraw: { consuming: false, argument: EXTRA_ARGS_ARG, controllers: (v) => [party(record(record(v.allocation).transferLeg).sender)] },
  },
  [ALLOCATION_REQUEST_V1_INTERFACE]: {
    AllocationRequest_Reject: { consuming: true, argument: { record: { actor: 'Party', extraArgs: EXTRA_ARGS_T } }, controllers: (_v, a) => [party(a.actor)] },
    AllocationRequest_Withdraw: { consuming: true, argument: EXTRA_ARGS_ARG, controllers: (v) => [party(record(v.settlement).executor)] },
  },
  [ALLOCATION_FACTORY_V1_INTERFACE]: {
    AllocationFactory_Allocate: {
      consuming: false,
      argument: { record: { expectedAdmin: 'Party', allocation: ALLOCATION_SPEC_T, requestedAt: 'Time', inputHoldingCids: { list: 'ContractId' }, extraArgs: EXTRA_ARGS_T } },
      controllers: (_v, a) => [party(record(record(a.allocation).transferLeg).sender)],
    },
    AllocationFactory_PublicFetch: {
      consuming: false,
      argument: { record: { expectedAdmin: 'Party', actor: 'Party' } },
      controllers: (_v, a) => [party(a.actor)],
    },
  },
  [ALLOCATION_INSTRUCTION_V1_INTERFACE]: {
    AllocationInstruction_Withdraw: { consuming: true, argument: EXTRA_ARGS_ARG, controllers: (v) => [party(record(record(v.allocation).transferLeg).sender)] },
    AllocationInstruction_Update: {
      consuming: true,
      argument: { record: { extraActors: { list: 'Party' }, extraArgs: EXTRA_ARGS_T } },
      controllers: (v, a) => [party(record(record(record(v.allocation).transferLeg).instrumentId).admin), ...parties(a.extraActors)],
    },
  },
};

/** The catalogue's `observers` of an interface choice that declares some. */
function observersOf(observers: InterfaceChoice['observers'], viewOf: (self: ContractView) => DamlRecord) {
  return observers === undefined ? {} : { observers: (self: ContractView, arg: DamlValue) => observers(viewOf(self), record(arg)) };
}

/** v1 and v2 side by side: a template may implement both, as Amulet does upstream. */
const INTERFACES = { ...INTERFACES_V1, ...INTERFACES_V2 };

/**
 * The token standard's v1 and v2 interfaces in a catalogue, each under its real package name and
 * qualified name, with the choices and controllers of the Daml interfaces. Choice bodies dispatch
 * to the implementing template (registered with `implement`), as Daml dispatches an interface
 * choice to the template's instance; a template without a body for a choice fails it.
 */
export class TokenStandardInterfaces {
  /** By `templateId (package-id form) \n interfaceId`. */
  readonly #impls = new Map<string, Implementation>();
  /** Interface ids (package-id form) by the package-name form above. */
  readonly #ids = new Map<string, string>();

  constructor(catalogue: Catalogue) {
    for (const [id, choices] of Object.entries(INTERFACES)) {
      const [pkg, module, entity] = id.slice(1).split(':') as [string, string, string];
      const def = unwrapRegistration(
        catalogue.addInterface({
          packageName: pkg,
          module,
          entity,
          choices: Object.fromEntries(
            Object.entries(choices).map(([name, c]) => [
              name,
              {
                consuming: c.consuming,
                argument: c.argument,
                controllers: (self: ContractView, arg: DamlValue) => c.controllers(record(this.view(self, id)), record(arg)),
                ...observersOf(c.observers, (self) => record(this.view(self, id))),
                body: ((ctx, self, arg) => {
                  const body = this.#impls.get(`${self.templateId}\n${this.#ids.get(id) ?? ''}`)?.choices?.[name];
                  if (body === undefined) return err(ctx.fail(`${self.templateId} does not implement ${name}`));
                  return body(ctx, self, arg);
                }) satisfies ChoiceBody,
              },
            ]),
          ),
        }),
      );
      this.#ids.set(id, def.id);
    }
  }

  /** Registers `templateId`'s implementation of `interfaceId` (both as the catalogue resolves them). */
  implement(templateId: string, interfaceId: string, impl: Implementation): void {
    this.#impls.set(`${templateId}\n${this.#ids.get(interfaceId) ?? interfaceId}`, impl);
  }

  /** The `implements` entry of a template: the view of each interface it implements. */
  static implementsOf(impls: Readonly<Record<string, Implementation>>): Record<string, { view: (self: ContractView) => DamlValue }> {
    return Object.fromEntries(Object.entries(impls).map(([id, impl]) => [id, { view: impl.view }]));
  }

  /** Whether the contract's template implements the interface (with a registered implementation). */
  implements(self: ContractView, interfaceId: string): boolean {
    return this.#impls.has(`${self.templateId}\n${this.#ids.get(interfaceId) ?? interfaceId}`);
  }

  /** The interface view of a contract; `{}` when its template does not implement the interface. */
  view(self: ContractView, interfaceId: string): DamlValue {
    return this.#impls.get(`${self.templateId}\n${this.#ids.get(interfaceId) ?? interfaceId}`)?.view(self) ?? {};
  }
}
