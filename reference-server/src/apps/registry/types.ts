/** Wire shapes of the registry's choice-context operations (specs/registry.openapi.yaml). */

/** A Splice.Api.Token.MetadataV1.AnyValue in its JSON encoding (only the tags the registry emits). */
export type AnyValue =
  | { readonly tag: 'AV_ContractId'; readonly value: string }
  | { readonly tag: 'AV_Text'; readonly value: string }
  | { readonly tag: 'AV_Bool'; readonly value: boolean }
  | { readonly tag: 'AV_Map'; readonly value: Readonly<Record<string, AnyValue>> }
  | { readonly tag: 'AV_List'; readonly value: readonly AnyValue[] };

export interface DisclosedContract {
  readonly templateId: string;
  readonly contractId: string;
  readonly createdEventBlob: string;
  readonly synchronizerId: string;
  readonly debugPackageName?: string;
  readonly debugPayload?: Readonly<Record<string, unknown>>;
  readonly debugCreatedAt?: string;
}

export interface ChoiceContext {
  readonly choiceContextData: { readonly values: Readonly<Record<string, AnyValue>> };
  readonly disclosedContracts: readonly DisclosedContract[];
}

export interface GetChoiceContextRequest {
  readonly meta: Readonly<Record<string, string>>;
  readonly excludeDebugFields: boolean;
}

/** The two choices of the allocation-instruction interface the registry serves contexts for. */
export type InstructionChoice = 'accept' | 'withdraw';
