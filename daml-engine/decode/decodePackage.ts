/**
 * Decodes a `daml_lf2.proto` Package into the AST (ast/Package.ts, ast/Expr.ts), resolving the
 * interning tables (strings, dotted names, types, kinds, expressions) as it goes.
 *
 * Protobuf writes fields in field-number order, so a Package's modules (field 1) come before the
 * tables they index (fields 2..9): a first pass notes where each field lies, the tables are decoded,
 * then the modules. Interned types and kinds may refer to earlier entries; interned expressions are
 * decoded on first reference.
 */
import type { BuiltinName } from '../builtins/Builtin.js';
import type { Binding, CaseAlt, Expr, FieldExpr, TypeConApp, Update } from '../ast/Expr.js';
import type {
  DataCons, DefDataType, DefException, DefInterface, DefTemplate, DefTypeSyn, DefValue, FieldWithType,
  InterfaceInstance, Module, ModuleMaps, Package, PackageMetadata, TemplateChoice, TypeVarWithKind,
} from '../ast/Package.js';
import { qualifiedKey } from '../ast/Package.js';
import type { BuiltinTypeName, Kind, QualifiedName, Type } from '../ast/Type.js';
import type { FailureCategory, RoundingMode, Value } from '../value/Value.js';
import { FALSE, TRUE, UNIT } from '../value/Value.js';
import { WireError, WireReader } from './WireReader.js';

const BUILTIN_TYPES: Readonly<Record<number, BuiltinTypeName>> = {
  0: 'UNIT', 1: 'BOOL', 2: 'INT64', 3: 'DATE', 4: 'TIMESTAMP', 5: 'NUMERIC', 6: 'PARTY', 7: 'TEXT',
  8: 'CONTRACT_ID', 9: 'OPTIONAL', 10: 'LIST', 11: 'GENMAP', 13: 'ANY', 14: 'ANY_EXCEPTION',
  15: 'TYPE_REP', 16: 'ARROW', 17: 'UPDATE', 18: 'FAILURE_CATEGORY', 19: 'TEXTMAP',
  1002: 'BIGNUMERIC', 1003: 'ROUNDING_MODE',
};

const BUILTIN_FUNCTIONS: Readonly<Record<number, BuiltinName>> = {
  0: 'TRACE', 1: 'ERROR', 2: 'EQUAL', 3: 'LESS_EQ', 4: 'LESS', 5: 'GREATER_EQ', 6: 'GREATER',
  7: 'ADD_INT64', 8: 'SUB_INT64', 9: 'MUL_INT64', 10: 'DIV_INT64', 11: 'MOD_INT64', 12: 'EXP_INT64',
  13: 'ADD_NUMERIC', 14: 'SUB_NUMERIC', 15: 'MUL_NUMERIC', 16: 'DIV_NUMERIC', 17: 'ROUND_NUMERIC',
  18: 'CAST_NUMERIC', 19: 'SHIFT_NUMERIC', 20: 'INT64_TO_NUMERIC', 21: 'NUMERIC_TO_INT64',
  22: 'INT64_TO_TEXT', 23: 'NUMERIC_TO_TEXT', 25: 'TIMESTAMP_TO_TEXT', 26: 'DATE_TO_TEXT',
  27: 'PARTY_TO_TEXT', 28: 'TEXT_TO_PARTY', 29: 'TEXT_TO_INT64', 30: 'TEXT_TO_NUMERIC',
  31: 'CONTRACT_ID_TO_TEXT', 32: 'SHA256_TEXT', 33: 'EXPLODE_TEXT', 34: 'APPEND_TEXT',
  35: 'IMPLODE_TEXT', 36: 'CODE_POINTS_TO_TEXT', 37: 'TEXT_TO_CODE_POINTS', 38: 'DATE_TO_UNIX_DAYS',
  39: 'UNIX_DAYS_TO_DATE', 40: 'TIMESTAMP_TO_UNIX_MICROSECONDS', 41: 'UNIX_MICROSECONDS_TO_TIMESTAMP',
  42: 'COERCE_CONTRACT_ID', 43: 'FOLDL', 44: 'FOLDR', 45: 'EQUAL_LIST',
  52: 'GENMAP_EMPTY', 53: 'GENMAP_INSERT', 54: 'GENMAP_LOOKUP', 55: 'GENMAP_DELETE', 56: 'GENMAP_KEYS',
  57: 'GENMAP_VALUES', 58: 'GENMAP_SIZE', 59: 'ANY_EXCEPTION_MESSAGE',
  60: 'TEXTMAP_EMPTY', 61: 'TEXTMAP_INSERT', 62: 'TEXTMAP_LOOKUP', 63: 'TEXTMAP_DELETE',
  64: 'TEXTMAP_TO_LIST', 65: 'TEXTMAP_SIZE', 66: 'FAIL_WITH_STATUS',
  67: 'KECCAK256_TEXT', 68: 'SECP256K1_BOOL', 69: 'HEX_TO_TEXT', 70: 'TEXT_TO_HEX', 71: 'SHA256_HEX',
  72: 'SECP256K1_WITH_ECDSA_BOOL', 73: 'SECP256K1_VALIDATE_KEY',
  2001: 'SCALE_BIGNUMERIC', 2002: 'PRECISION_BIGNUMERIC', 2003: 'ADD_BIGNUMERIC', 2004: 'SUB_BIGNUMERIC',
  2005: 'MUL_BIGNUMERIC', 2006: 'DIV_BIGNUMERIC', 2007: 'SHIFT_RIGHT_BIGNUMERIC',
  2008: 'BIGNUMERIC_TO_NUMERIC', 2009: 'NUMERIC_TO_BIGNUMERIC', 2010: 'BIGNUMERIC_TO_TEXT',
  3011: 'TYPE_REP_TYCON_NAME',
};

const ROUNDING_MODES: readonly RoundingMode[] = ['UP', 'DOWN', 'CEILING', 'FLOOR', 'HALF_UP', 'HALF_DOWN', 'HALF_EVEN', 'UNNECESSARY'];
const FAILURE_CATEGORIES: readonly FailureCategory[] = ['INVALID_INDEPENDENT_OF_SYSTEM_STATE', 'INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER'];
const BUILTIN_CONS = [UNIT, FALSE, TRUE] as const;
const BUILTIN_CON_NAMES = ['unit', 'false', 'true'] as const;
const STAR: Kind = { kind: 'star' };
const NAT: Kind = { kind: 'nat' };
/** Placeholder for a `Type` field that is absent (proto3 defaults); only checked where required. */
const NO_TYPE: Type = { kind: 'struct', fields: [] };

/**
 * `xs` without the spare slots `push` leaves (an array grown from empty holds 16 slots for one
 * element): decoded packages live as long as the ledger, and spare slots were about 30% of their
 * heap, copied by every young-generation collection they survived.
 */
function exact<T>(xs: T[]): T[] {
  return xs.length === 0 ? xs : xs.slice();
}

/** A malformed package: a missing or out-of-range field. */
export class PackageFormatError extends WireError {}

type Range = readonly [start: number, end: number];

/**
 * How deep types, kinds and expressions may nest in the wire format. Decoding recurses (a few JS
 * frames per level), so a deeper input is refused here rather than overflowing the JS stack. A
 * level is an Expr (or Type, Kind) and the message of its case, so 500 levels is about the 1000
 * protobuf messages Daml's archive reader allows; real packages nest up to ~250 (splice-amulet-test).
 */
export const MAX_WIRE_NESTING = 500;

interface ModuleRef { readonly packageId: string; readonly module: string }
/** Reads one case of `Expr.Sum` (`field`), the reader at the start of its message. */
type ExprCaseReader = (d: PackageDecoder, end: number, field: number) => Expr;
/** Reads one case of `Type.Sum`, the reader just past its tag. */
type TypeCaseReader = (d: PackageDecoder) => Type;
/** Tags of `Type.Sum`'s cases are below this ((9 << 3) | 2 is the last). */
const TYPE_CASE_TAGS = 80;

/** A table by tag, every slot present (a packed array: no holes to look up through). */
function typeCaseTable(cases: readonly (readonly [tag: number, read: TypeCaseReader])[]): readonly (TypeCaseReader | undefined)[] {
  const table = Array.from<TypeCaseReader | undefined>({ length: TYPE_CASE_TAGS });
  for (const [tag, read] of cases) table[tag] = read;
  return table;
}
/** Where a value's body lies and, once decoded, the body (see `PackageDecoder.lazyBody`). */
interface LazyBody { decoder: PackageDecoder | undefined; readonly range: Range; expr: Expr | undefined }
/** A decoded value's lazy body: a symbol, non-enumerable, so keys, JSON and copies see `name`, `type`, `expr` only. */
const LAZY_BODY = Symbol('lazy value body');
/** A module's definitions by kind, as they are read. */
type ModuleDefs = ModuleMaps;

/** Decodes one package payload (the `daml_lf_2` bytes of an ArchivePayload). */
export function decodePackage(bytes: Uint8Array, packageId: string, lfVersion: string): Package {
  const steps = decodePackageSteps(bytes, packageId, lfVersion);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Interned table entries (types, kinds, names) decoded per step of `decodePackageSteps`. */
const TABLE_STEP = 256;

/**
 * `decodePackage` in steps (a slice of the interned tables, a module): the caller drives it and
 * may yield to the event loop between steps (an HTTP upload of a large package does).
 */
export function decodePackageSteps(bytes: Uint8Array, packageId: string, lfVersion: string): Generator<void, Package> {
  return new PackageDecoder(bytes, packageId).decode(lfVersion);
}

class PackageDecoder {
  private readonly r: WireReader;
  private strings: string[] = [];
  private dottedNames: string[] = [];
  private types: Type[] = [];
  private kinds: Kind[] = [];
  private exprRanges: Range[] = [];
  private exprs: (Expr | undefined)[] = [];
  private imports: string[] | undefined;
  /** By package id, module, name: nested maps, so a look-up builds no key string. */
  private readonly names = new Map<string, Map<string, Map<string, QualifiedName>>>();
  /** Current nesting of type/kind/expr messages (see MAX_WIRE_NESTING). */
  private depth = 0;
  /** Interned expressions being decoded: one that contains itself is refused, not recursed into. */
  private readonly decoding = new Set<number>();

  constructor(bytes: Uint8Array, private readonly selfId: string) {
    this.r = new WireReader(bytes);
  }

  /** The first pass: strings, imports and expression ranges kept, where the other tables and the modules lie. */
  private scan(): { moduleRanges: Range[]; typeRanges: Range[]; kindRanges: Range[]; dottedRanges: Range[]; metadataRange: Range | undefined } {
    const r = this.r;
    const moduleRanges: Range[] = [];
    const typeRanges: Range[] = [];
    const kindRanges: Range[] = [];
    const dottedRanges: Range[] = [];
    let metadataRange: Range | undefined;
    const end = r.buf.length;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case (1 << 3) | 2: moduleRanges.push(this.range()); break;
        case (2 << 3) | 2: this.strings.push(r.string()); break;
        case (3 << 3) | 2: dottedRanges.push(this.range()); break;
        case (4 << 3) | 2: metadataRange = this.range(); break;
        case (5 << 3) | 2: typeRanges.push(this.range()); break;
        case (6 << 3) | 2: kindRanges.push(this.range()); break;
        case (7 << 3) | 2: this.exprRanges.push(this.range()); break;
        case (9 << 3) | 2: this.imports = this.packageImports(r.limit()); break;
        default: r.skip(tag);
      }
    }
    return { moduleRanges, typeRanges, kindRanges, dottedRanges, metadataRange };
  }

  *decode(lfVersion: string): Generator<void, Package> {
    const { moduleRanges, typeRanges, kindRanges, dottedRanges, metadataRange } = this.scan();
    yield;
    // Indexed loops whose bodies are methods: this generator is resumed once per step, and V8's
    // optimized code for a generator body met mid-way (a table loop) deoptimized at each later
    // package's first unseen access (e.g. the metadata range, once per package).
    for (let i = 0; i < dottedRanges.length; i++) {
      this.dottedNames.push(this.dottedName(dottedRanges[i]!));
      if (i % TABLE_STEP === TABLE_STEP - 1) yield;
    }
    for (let i = 0; i < kindRanges.length; i++) {
      this.kinds.push(this.kindAt(kindRanges[i]!));
      if (i % TABLE_STEP === TABLE_STEP - 1) yield;
    }
    for (let i = 0; i < typeRanges.length; i++) {
      this.types.push(this.typeAt(typeRanges[i]!));
      if (i % TABLE_STEP === TABLE_STEP - 1) yield;
    }
    const metadata = metadataRange ? this.metadataAt(metadataRange) : undefined;
    const modules = new Map<string, Module>();
    for (let i = 0; i < moduleRanges.length; i++) {
      const module = this.moduleAt(moduleRanges[i]!);
      setOnce(modules, module.name, module, 'module');
      yield;
    }
    return { id: this.selfId, lfVersion, metadata, modules, imports: this.imports };
  }

  // ---- tables --------------------------------------------------------------------------------

  private dottedName(range: Range): string {
    this.r.pos = range[0];
    return this.ints(range[1]).map((n) => this.str(n)).join('.');
  }

  private kindAt(range: Range): Kind {
    this.r.pos = range[0];
    return this.kind(range[1]);
  }

  private typeAt(range: Range): Type {
    this.r.pos = range[0];
    return this.type(range[1]);
  }

  private metadataAt(range: Range): PackageMetadata {
    this.r.pos = range[0];
    return this.metadata(range[1]);
  }

  private moduleAt(range: Range): Module {
    this.r.pos = range[0];
    return this.module(range[1]);
  }

  // proto3 omits a zero-valued int32, so an absent interned index means entry 0 of its table.
  private get s0(): string {
    return this.strings[0] ?? '';
  }

  private get d0(): string {
    return this.dottedNames[0] ?? '';
  }

  private range(): Range {
    const end = this.r.limit();
    const start = this.r.pos;
    this.r.pos = end;
    return [start, end];
  }

  private str(index: number): string {
    const s = this.strings[index];
    if (s === undefined) throw new PackageFormatError(`interned string ${index} out of range (${this.strings.length} strings)`);
    return s;
  }

  private dname(index: number): string {
    const s = this.dottedNames[index];
    if (s === undefined) throw new PackageFormatError(`interned dotted name ${index} out of range (${this.dottedNames.length})`);
    return s;
  }

  /** A repeated int32 field's items up to `end`, packed or not (the current field only). */
  private ints(end: number): number[] {
    const r = this.r;
    const out: number[] = [];
    while (r.pos < end) {
      const tag = r.tag();
      if ((tag & 7) === 2) {
        const stop = r.limit();
        while (r.pos < stop) out.push(r.uint32());
      } else if ((tag & 7) === 0) {
        out.push(r.uint32());
      } else r.skip(tag);
    }
    return out;
  }

  private packageImports(end: number): string[] {
    const r = this.r;
    const out: string[] = [];
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === ((1 << 3) | 2)) out.push(r.string());
      else r.skip(tag);
    }
    return out;
  }

  private metadata(end: number): PackageMetadata {
    const r = this.r;
    let name = this.s0, version = this.s0;
    let upgradedPackageId: string | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case 1 << 3: name = this.str(r.uint32()); break;
        case 2 << 3: version = this.str(r.uint32()); break;
        case (3 << 3) | 2: {
          const stop = r.limit();
          while (r.pos < stop) {
            const t = r.tag();
            if (t === 1 << 3) upgradedPackageId = this.str(r.uint32());
            else r.skip(t);
          }
          break;
        }
        default: r.skip(tag);
      }
    }
    return { name, version, upgradedPackageId };
  }

  private qname(ref: ModuleRef, name: string): QualifiedName {
    let modules = this.names.get(ref.packageId);
    if (!modules) { modules = new Map(); this.names.set(ref.packageId, modules); }
    let names = modules.get(ref.module);
    if (!names) { names = new Map(); modules.set(ref.module, names); }
    let q = names.get(name);
    if (!q) { q = { packageId: ref.packageId, module: ref.module, name }; names.set(name, q); }
    return q;
  }

  // ---- names -----------------------------------------------------------------------------------

  private packageRef(end: number): string {
    const r = this.r;
    let id = this.selfId;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case (1 << 3) | 2: r.skip(tag); id = this.selfId; break;
        case 3 << 3: id = this.str(r.uint32()); break;
        case 4 << 3: {
          const index = r.uint32();
          const imported = this.imports?.[index];
          if (imported === undefined) throw new PackageFormatError(`package import ${index} out of range`);
          id = imported;
          break;
        }
        default: r.skip(tag);
      }
    }
    return id;
  }

  private moduleRef(end: number): ModuleRef {
    const r = this.r;
    let packageId = this.selfId;
    let module = this.d0;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case (1 << 3) | 2: packageId = this.packageRef(r.limit()); break;
        case 2 << 3: module = this.dname(r.uint32()); break;
        default: r.skip(tag);
      }
    }
    return { packageId, module };
  }

  /** TypeConId, TypeSynId, ValueId: a module and a dotted name. */
  private defRef(end: number): QualifiedName {
    const r = this.r;
    let ref: ModuleRef = { packageId: this.selfId, module: '' };
    let name = this.d0;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case (1 << 3) | 2: ref = this.moduleRef(r.limit()); break;
        case 2 << 3: name = this.dname(r.uint32()); break;
        default: r.skip(tag);
      }
    }
    return this.qname(ref, name);
  }

  // ---- kinds and types -------------------------------------------------------------------------

  private kind(end: number): Kind {
    const r = this.r;
    this.enter();
    let kind: Kind = STAR;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case (1 << 3) | 2: r.skip(tag); kind = STAR; break;
        case (2 << 3) | 2: {
          const stop = r.limit();
          const params: Kind[] = [];
          let result: Kind = STAR;
          while (r.pos < stop) {
            const t = r.tag();
            if (t === ((1 << 3) | 2)) params.push(this.kind(r.limit()));
            else if (t === ((2 << 3) | 2)) result = this.kind(r.limit());
            else r.skip(t);
          }
          kind = { kind: 'arrow', params: exact(params), result };
          break;
        }
        case (3 << 3) | 2: r.skip(tag); kind = NAT; break;
        case 4 << 3: {
          const i = r.uint32();
          const k = this.kinds[i];
          if (!k) throw new PackageFormatError(`interned kind ${i} out of range`);
          kind = k;
          break;
        }
        default: r.skip(tag);
      }
    }
    this.depth--;
    return kind;
  }

  private enter(): void {
    if (++this.depth > MAX_WIRE_NESTING) throw new PackageFormatError(`types, kinds or expressions nest deeper than ${MAX_WIRE_NESTING} levels`);
  }

  private type(end: number): Type {
    const r = this.r;
    this.enter();
    let type: Type | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      const read = tag < TYPE_CASE_TAGS ? PackageDecoder.TYPE_CASES[tag] : undefined;
      if (read === undefined) r.skip(tag);
      else type = read(this);
    }
    if (!type) throw new PackageFormatError(`empty type at byte ${end}`);
    this.depth--;
    return type;
  }

  /**
   * `type`'s readers by tag (`Type.Sum`'s cases, each past its tag): one call site for every case,
   * so a case first met late (a forall, a struct, a nat) deoptimizes and recompiles its reader only,
   * not one function with every case inlined. An absent entry is a field to skip.
   */
  private static readonly TYPE_CASES: readonly (TypeCaseReader | undefined)[] = typeCaseTable([
    [(1 << 3) | 2, (d) => { // Var
      const r = d.r;
      const stop = r.limit();
      let name = d.s0;
      const args: Type[] = [];
      while (r.pos < stop) {
        const t = r.tag();
        if (t === 3 << 3) name = d.str(r.uint32());
        else if (t === ((2 << 3) | 2)) args.push(d.type(r.limit()));
        else r.skip(t);
      }
      return { kind: 'var', name, args: exact(args) };
    }],
    [(2 << 3) | 2, (d) => { const c = d.typeConApp(d.r.limit()); return { kind: 'con', tycon: c.tycon, args: c.args }; }],
    [(3 << 3) | 2, (d) => { // Builtin
      const r = d.r;
      const stop = r.limit();
      let builtin: BuiltinTypeName = 'UNIT';
      const args: Type[] = [];
      while (r.pos < stop) {
        const t = r.tag();
        if (t === 1 << 3) {
          const n = r.uint32();
          const b = BUILTIN_TYPES[n];
          if (!b) throw new PackageFormatError(`unknown builtin type ${n}`);
          builtin = b;
        } else if (t === ((2 << 3) | 2)) args.push(d.type(r.limit()));
        else r.skip(t);
      }
      return { kind: 'builtin', builtin, args: exact(args) };
    }],
    [(4 << 3) | 2, (d) => { // Forall
      const r = d.r;
      const stop = r.limit();
      const vars: TypeVarWithKind[] = [];
      let body: Type = NO_TYPE;
      while (r.pos < stop) {
        const t = r.tag();
        if (t === ((1 << 3) | 2)) vars.push(d.typeVar(r.limit()));
        else if (t === ((2 << 3) | 2)) body = d.type(r.limit());
        else r.skip(t);
      }
      return { kind: 'forall', vars: exact(vars), body };
    }],
    [(5 << 3) | 2, (d) => { // Struct
      const r = d.r;
      const stop = r.limit();
      const fields: FieldWithType[] = [];
      while (r.pos < stop) {
        const t = r.tag();
        if (t === ((1 << 3) | 2)) fields.push(d.fieldWithType(r.limit()));
        else r.skip(t);
      }
      return { kind: 'struct', fields: exact(fields) };
    }],
    [6 << 3, (d) => ({ kind: 'nat', value: Number(d.r.sint64()) })],
    [(7 << 3) | 2, (d) => { const c = d.typeConApp(d.r.limit()); return { kind: 'syn', tysyn: c.tycon, args: c.args }; }],
    [8 << 3, (d) => { // interned
      const i = d.r.uint32();
      const t = d.types[i];
      if (!t) throw new PackageFormatError(`interned type ${i} out of range (${d.types.length} decoded)`);
      return t;
    }],
    [(9 << 3) | 2, (d) => { // App (LF 2.dev)
      const r = d.r;
      const stop = r.limit();
      let lhs: Type = NO_TYPE, rhs: Type = NO_TYPE;
      while (r.pos < stop) {
        const t = r.tag();
        if (t === ((1 << 3) | 2)) lhs = d.type(r.limit());
        else if (t === ((2 << 3) | 2)) rhs = d.type(r.limit());
        else r.skip(t);
      }
      return { kind: 'app', lhs, rhs };
    }],
  ]);

  /** `Type.Con` / `Type.Syn`: a reference (field 1) and arguments (field 2). */
  private typeConApp(end: number): TypeConApp {
    const r = this.r;
    let tycon: QualifiedName | undefined;
    const args: Type[] = [];
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === ((1 << 3) | 2)) tycon = this.defRef(r.limit());
      else if (tag === ((2 << 3) | 2)) args.push(this.type(r.limit()));
      else r.skip(tag);
    }
    if (!tycon) throw new PackageFormatError('type constructor without a name');
    return { tycon, args: exact(args) };
  }

  private typeVar(end: number): TypeVarWithKind {
    const r = this.r;
    let name = this.s0;
    let kind: Kind = STAR;
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === 3 << 3) name = this.str(r.uint32());
      else if (tag === ((2 << 3) | 2)) kind = this.kind(r.limit());
      else r.skip(tag);
    }
    return { name, kind };
  }

  /** FieldWithType and VarWithType share their layout (name 3, type 2). */
  private fieldWithType(end: number): FieldWithType {
    const r = this.r;
    let name = this.s0;
    let type: Type = NO_TYPE;
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === 3 << 3) name = this.str(r.uint32());
      else if (tag === ((2 << 3) | 2)) type = this.type(r.limit());
      else r.skip(tag);
    }
    return { name, type };
  }

  // ---- expressions -----------------------------------------------------------------------------

  private internedExpr(index: number): Expr {
    const cached = this.exprs[index];
    if (cached) return cached;
    const range = this.exprRanges[index];
    if (!range) throw new PackageFormatError(`interned expression ${index} out of range`);
    if (this.decoding.has(index)) throw new PackageFormatError(`interned expression ${index} contains itself`);
    this.decoding.add(index);
    const saved = this.r.pos;
    this.r.pos = range[0];
    const expr = this.expr(range[1]);
    this.r.pos = saved;
    this.decoding.delete(index);
    this.exprs[index] = expr;
    return expr;
  }

  /** Reads a sub-message holding an Expr. */
  private subExpr(): Expr {
    return this.expr(this.r.limit());
  }

  private expr(end: number): Expr {
    const r = this.r;
    this.enter();
    let expr: Expr | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      const field = tag >>> 3;
      if (field === 1) { r.skip(tag); continue; } // location
      if ((tag & 7) === 0) {
        const n = r.uint32();
        switch (field) {
          case 2: expr = { kind: 'var', name: this.str(n) }; break;
          case 4: {
            const builtin = BUILTIN_FUNCTIONS[n];
            if (!builtin) throw new PackageFormatError(`unknown builtin function ${n}`);
            expr = { kind: 'builtin', builtin };
            break;
          }
          case 5: {
            const value = BUILTIN_CONS[n];
            if (!value) throw new PackageFormatError(`unknown builtin constructor ${n}`);
            expr = { kind: 'lit', value };
            break;
          }
          case 44: expr = this.internedExpr(n); break;
          default: throw new PackageFormatError(`unexpected varint expression field ${field}`);
        }
        continue;
      }
      if ((tag & 7) !== 2) { r.skip(tag); continue; }
      const stop = r.limit();
      expr = this.exprCase(field, stop);
      r.pos = stop;
    }
    if (!expr) throw new PackageFormatError(`empty expression ending at byte ${end}`);
    this.depth--;
    return expr;
  }

  /**
   * `exprCase`'s readers by field number: one call site for every case, so a case first met late
   * deoptimizes and recompiles its reader only, not one function with every case inlined.
   */
  private static readonly RECORD_PROJ_OR_UPD: ExprCaseReader = (d, end, field) => { // RecProj, RecUpd
    const r = d.r;
    let tycon: TypeConApp | undefined;
    let fieldName = d.s0;
    let record: Expr | undefined, update: Expr | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case (1 << 3) | 2: tycon = d.typeConApp(r.limit()); break;
        case 4 << 3: if (field === 8) fieldName = d.str(r.uint32()); else r.skip(tag); break;
        case 2 << 3: if (field === 9) fieldName = d.str(r.uint32()); else r.skip(tag); break;
        case (3 << 3) | 2: record = d.subExpr(); break;
        case (4 << 3) | 2: update = d.subExpr(); break;
        default: r.skip(tag);
      }
    }
    if (field === 8) return { kind: 'recProj', tycon: need(tycon, 'rec_proj.tycon'), field: fieldName, record: need(record, 'rec_proj.record') };
    return { kind: 'recUpd', tycon: need(tycon, 'rec_upd.tycon'), field: fieldName, record: need(record, 'rec_upd.record'), update: need(update, 'rec_upd.update') };
  };

  private static readonly STRUCT_PROJ_OR_UPD: ExprCaseReader = (d, end, field) => { // StructProj, StructUpd
    const r = d.r;
    let fieldName = d.s0;
    let struct: Expr | undefined, update: Expr | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case 1 << 3: fieldName = d.str(r.uint32()); break;
        case (2 << 3) | 2: struct = d.subExpr(); break;
        case (3 << 3) | 2: update = d.subExpr(); break;
        default: r.skip(tag);
      }
    }
    if (field === 13) return { kind: 'structProj', field: fieldName, struct: need(struct, 'struct_proj.struct') };
    return { kind: 'structUpd', field: fieldName, struct: need(struct, 'struct_upd.struct'), update: need(update, 'struct_upd.update') };
  };

  private static readonly TO_OR_FROM_INTERFACE: ExprCaseReader = (d, end, field) => { // ToInterface, FromInterface
    const { a, b, e1 } = d.twoRefsExprs(end);
    if (field === 33) return { kind: 'toInterface', iface: need(a, 'to_interface.interface_type'), template: need(b, 'to_interface.template_type'), expr: need(e1, 'to_interface.template_expr') };
    return { kind: 'fromInterface', iface: need(a, 'from_interface.interface_type'), template: need(b, 'from_interface.template_type'), expr: need(e1, 'from_interface.interface_expr') };
  };

  private static readonly INTERFACE_AND_EXPR: ExprCaseReader = (d, end, field) => { // one interface and one expression
    const r = d.r;
    let iface: QualifiedName | undefined;
    let expr: Expr | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === ((1 << 3) | 2)) iface = d.defRef(r.limit());
      else if (tag === ((2 << 3) | 2)) expr = d.subExpr();
      else r.skip(tag);
    }
    const kind = field === 36 ? 'signatoryInterface' : field === 37 ? 'observerInterface' : field === 38 ? 'viewInterface' : 'interfaceTemplateTypeRep';
    return { kind, iface: need(iface, `${kind}.interface`), expr: need(expr, `${kind}.expr`) };
  };

  private static readonly TO_OR_FROM_REQUIRED: ExprCaseReader = (d, end, field) => {
    const { a, b, e1 } = d.twoRefsExprs(end);
    const kind = field === 41 ? 'toRequiredInterface' : 'fromRequiredInterface';
    return { kind, required: need(a, `${kind}.required_interface`), requiring: need(b, `${kind}.requiring_interface`), expr: need(e1, `${kind}.expr`) };
  };

  private static readonly CHOICE_PARTIES: ExprCaseReader = (d, end, field) => {
    const r = d.r;
    let template: QualifiedName | undefined;
    let choice = d.s0;
    let contract: Expr | undefined, arg: Expr | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case (1 << 3) | 2: template = d.defRef(r.limit()); break;
        case 2 << 3: choice = d.str(r.uint32()); break;
        case (3 << 3) | 2: contract = d.subExpr(); break;
        case (4 << 3) | 2: arg = d.subExpr(); break;
        default: r.skip(tag);
      }
    }
    const kind = field === 1001 ? 'choiceController' : 'choiceObserver';
    return { kind, template: need(template, `${kind}.template`), choice, contract: need(contract, `${kind}.contract_expr`), arg: need(arg, `${kind}.choice_arg_expr`) };
  };

  private static readonly EXPR_CASES: ReadonlyMap<number, ExprCaseReader> = new Map<number, ExprCaseReader>([
    [3, (d, end) => ({ kind: 'val', ref: d.defRef(end) })],
    [6, (d, end) => ({ kind: 'lit', value: d.builtinLit(end) })],
    [7, (d, end) => { // RecCon
      const r = d.r;
      let tycon: TypeConApp | undefined;
      const fields: FieldExpr[] = [];
      while (r.pos < end) {
        const tag = r.tag();
        if (tag === ((1 << 3) | 2)) tycon = d.typeConApp(r.limit());
        else if (tag === ((2 << 3) | 2)) fields.push(d.fieldExpr(r.limit()));
        else r.skip(tag);
      }
      return { kind: 'recCon', tycon: need(tycon, 'rec_con.tycon'), fields: exact(fields) };
    }],
    [8, PackageDecoder.RECORD_PROJ_OR_UPD],
    [9, PackageDecoder.RECORD_PROJ_OR_UPD],
    [10, (d, end) => { // VariantCon
      const r = d.r;
      let tycon: TypeConApp | undefined;
      let constructor = d.s0;
      let arg: Expr | undefined;
      while (r.pos < end) {
        const tag = r.tag();
        switch (tag) {
          case (1 << 3) | 2: tycon = d.typeConApp(r.limit()); break;
          case 2 << 3: constructor = d.str(r.uint32()); break;
          case (3 << 3) | 2: arg = d.subExpr(); break;
          default: r.skip(tag);
        }
      }
      return { kind: 'variantCon', tycon: need(tycon, 'variant_con.tycon'), constructor, arg: need(arg, 'variant_con.variant_arg') };
    }],
    [11, (d, end) => { // EnumCon
      const r = d.r;
      let tycon: QualifiedName | undefined;
      let constructor = d.s0;
      while (r.pos < end) {
        const tag = r.tag();
        if (tag === ((1 << 3) | 2)) tycon = d.defRef(r.limit());
        else if (tag === 2 << 3) constructor = d.str(r.uint32());
        else r.skip(tag);
      }
      return { kind: 'enumCon', tycon: need(tycon, 'enum_con.tycon'), constructor };
    }],
    [12, (d, end) => { // StructCon
      const r = d.r;
      const fields: FieldExpr[] = [];
      while (r.pos < end) {
        const tag = r.tag();
        if (tag === ((1 << 3) | 2)) fields.push(d.fieldExpr(r.limit()));
        else r.skip(tag);
      }
      return { kind: 'structCon', fields: exact(fields) };
    }],
    [13, PackageDecoder.STRUCT_PROJ_OR_UPD],
    [14, PackageDecoder.STRUCT_PROJ_OR_UPD],
    [15, (d, end) => { // App
      const r = d.r;
      let fun: Expr | undefined;
      const args: Expr[] = [];
      while (r.pos < end) {
        const tag = r.tag();
        if (tag === ((1 << 3) | 2)) fun = d.subExpr();
        else if (tag === ((2 << 3) | 2)) args.push(d.subExpr());
        else r.skip(tag);
      }
      return { kind: 'app', fun: need(fun, 'app.fun'), args: exact(args) };
    }],
    [16, (d, end) => { // TyApp
      const r = d.r;
      let expr: Expr | undefined;
      const types: Type[] = [];
      while (r.pos < end) {
        const tag = r.tag();
        if (tag === ((1 << 3) | 2)) expr = d.subExpr();
        else if (tag === ((2 << 3) | 2)) types.push(d.type(r.limit()));
        else r.skip(tag);
      }
      return { kind: 'tyApp', expr: need(expr, 'ty_app.expr'), types: exact(types) };
    }],
    [17, (d, end) => { // Abs
      const r = d.r;
      const params: FieldWithType[] = [];
      let body: Expr | undefined;
      while (r.pos < end) {
        const tag = r.tag();
        if (tag === ((1 << 3) | 2)) params.push(d.fieldWithType(r.limit()));
        else if (tag === ((2 << 3) | 2)) body = d.subExpr();
        else r.skip(tag);
      }
      return { kind: 'abs', params: exact(params), body: need(body, 'abs.body') };
    }],
    [18, (d, end) => { // TyAbs
      const r = d.r;
      const params: TypeVarWithKind[] = [];
      let body: Expr | undefined;
      while (r.pos < end) {
        const tag = r.tag();
        if (tag === ((1 << 3) | 2)) params.push(d.typeVar(r.limit()));
        else if (tag === ((2 << 3) | 2)) body = d.subExpr();
        else r.skip(tag);
      }
      return { kind: 'tyAbs', params: exact(params), body: need(body, 'ty_abs.body') };
    }],
    [19, (d, end) => { // Case
      const r = d.r;
      let scrut: Expr | undefined;
      const alts: CaseAlt[] = [];
      while (r.pos < end) {
        const tag = r.tag();
        if (tag === ((1 << 3) | 2)) scrut = d.subExpr();
        else if (tag === ((2 << 3) | 2)) alts.push(d.caseAlt(r.limit()));
        else r.skip(tag);
      }
      return { kind: 'case', scrut: need(scrut, 'case.scrut'), alts: exact(alts) };
    }],
    [20, (d, end) => { const b = d.block(end); return { kind: 'let', bindings: b.bindings, body: b.body }; }],
    [21, (d, end) => ({ kind: 'nil', type: d.typeField(end, 1) })],
    [22, (d, end) => { // Cons
      const r = d.r;
      let type: Type = NO_TYPE;
      const front: Expr[] = [];
      let tail: Expr | undefined;
      while (r.pos < end) {
        const tag = r.tag();
        switch (tag) {
          case (1 << 3) | 2: type = d.type(r.limit()); break;
          case (2 << 3) | 2: front.push(d.subExpr()); break;
          case (3 << 3) | 2: tail = d.subExpr(); break;
          default: r.skip(tag);
        }
      }
      return { kind: 'cons', type, front: exact(front), tail: need(tail, 'cons.tail') };
    }],
    [23, (d, end) => ({ kind: 'update', update: d.update(end) })],
    [25, (d, end) => ({ kind: 'optionalNone', type: d.typeField(end, 1) })],
    [26, (d, end) => { const [type, value] = d.typeAndExpr(end); return { kind: 'optionalSome', type, value: need(value, 'optional_some.value') }; }],
    [27, (d, end) => { const [type, expr] = d.typeAndExpr(end); return { kind: 'toAny', type, expr: need(expr, 'to_any.expr') }; }],
    [28, (d, end) => { const [type, expr] = d.typeAndExpr(end); return { kind: 'fromAny', type, expr: need(expr, 'from_any.expr') }; }],
    [29, (d, end) => ({ kind: 'typeRep', type: d.type(end) })],
    [30, (d, end) => { const [type, expr] = d.typeAndExpr(end); return { kind: 'toAnyException', type, expr: need(expr, 'to_any_exception.expr') }; }],
    [31, (d, end) => { const [type, expr] = d.typeAndExpr(end); return { kind: 'fromAnyException', type, expr: need(expr, 'from_any_exception.expr') }; }],
    [32, (d, end) => { // Throw
      const r = d.r;
      let returnType: Type = NO_TYPE, exceptionType: Type = NO_TYPE;
      let expr: Expr | undefined;
      while (r.pos < end) {
        const tag = r.tag();
        switch (tag) {
          case (1 << 3) | 2: returnType = d.type(r.limit()); break;
          case (2 << 3) | 2: exceptionType = d.type(r.limit()); break;
          case (3 << 3) | 2: expr = d.subExpr(); break;
          default: r.skip(tag);
        }
      }
      return { kind: 'throw', returnType, exceptionType, expr: need(expr, 'throw.exception_expr') };
    }],
    [33, PackageDecoder.TO_OR_FROM_INTERFACE],
    [34, PackageDecoder.TO_OR_FROM_INTERFACE],
    [35, (d, end) => { // CallInterface
      const r = d.r;
      let iface: QualifiedName | undefined;
      let method = d.s0;
      let expr: Expr | undefined;
      while (r.pos < end) {
        const tag = r.tag();
        switch (tag) {
          case (1 << 3) | 2: iface = d.defRef(r.limit()); break;
          case 2 << 3: method = d.str(r.uint32()); break;
          case (3 << 3) | 2: expr = d.subExpr(); break;
          default: r.skip(tag);
        }
      }
      return { kind: 'callInterface', iface: need(iface, 'call_interface.interface_type'), method, expr: need(expr, 'call_interface.interface_expr') };
    }],
    [36, PackageDecoder.INTERFACE_AND_EXPR],
    [37, PackageDecoder.INTERFACE_AND_EXPR],
    [38, PackageDecoder.INTERFACE_AND_EXPR],
    [40, PackageDecoder.INTERFACE_AND_EXPR],
    [39, (d, end) => {
      const { a, b, e1, e2 } = d.twoRefsExprs(end);
      return { kind: 'unsafeFromInterface', iface: need(a, 'unsafe_from_interface.interface_type'), template: need(b, 'unsafe_from_interface.template_type'), cid: need(e1, 'unsafe_from_interface.contract_id_expr'), expr: need(e2, 'unsafe_from_interface.interface_expr') };
    }],
    [41, PackageDecoder.TO_OR_FROM_REQUIRED],
    [42, PackageDecoder.TO_OR_FROM_REQUIRED],
    [43, (d, end) => {
      const { a, b, e1, e2 } = d.twoRefsExprs(end);
      return { kind: 'unsafeFromRequiredInterface', required: need(a, 'required_interface'), requiring: need(b, 'requiring_interface'), cid: need(e1, 'contract_id_expr'), expr: need(e2, 'interface_expr') };
    }],
    [1001, PackageDecoder.CHOICE_PARTIES],
    [1002, PackageDecoder.CHOICE_PARTIES],
    [9999, (d, end) => {
      const r = d.r;
      let name = '';
      let type: Type = NO_TYPE;
      while (r.pos < end) {
        const tag = r.tag();
        if (tag === ((1 << 3) | 2)) name = r.string();
        else if (tag === ((2 << 3) | 2)) type = d.type(r.limit());
        else r.skip(tag);
      }
      return { kind: 'experimental', name, type };
    }],
  ]);

  /** The length-delimited cases of `Expr.Sum`, the reader at the start of the case's message. */
  private exprCase(field: number, end: number): Expr {
    const read = PackageDecoder.EXPR_CASES.get(field);
    if (!read) throw new PackageFormatError(`unknown expression case ${field}`);
    return read(this, end, field);
  }

  /** Messages laid out as (TypeConId 1, TypeConId 2, Expr 3, Expr 4). */
  private twoRefsExprs(end: number): { a?: QualifiedName; b?: QualifiedName; e1?: Expr; e2?: Expr } {
    const r = this.r;
    const out: { a?: QualifiedName; b?: QualifiedName; e1?: Expr; e2?: Expr } = {};
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case (1 << 3) | 2: out.a = this.defRef(r.limit()); break;
        case (2 << 3) | 2: out.b = this.defRef(r.limit()); break;
        case (3 << 3) | 2: out.e1 = this.subExpr(); break;
        case (4 << 3) | 2: out.e2 = this.subExpr(); break;
        default: r.skip(tag);
      }
    }
    return out;
  }

  /** Messages laid out as (Type 1, Expr 2). */
  private typeAndExpr(end: number): [Type, Expr | undefined] {
    const r = this.r;
    let type: Type = NO_TYPE;
    let expr: Expr | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === ((1 << 3) | 2)) type = this.type(r.limit());
      else if (tag === ((2 << 3) | 2)) expr = this.subExpr();
      else r.skip(tag);
    }
    return [type, expr];
  }

  private typeField(end: number, field: number): Type {
    const r = this.r;
    let type: Type = NO_TYPE;
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === ((field << 3) | 2)) type = this.type(r.limit());
      else r.skip(tag);
    }
    return type;
  }

  private fieldExpr(end: number): FieldExpr {
    const r = this.r;
    let fieldName = this.s0;
    let expr: Expr | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === 3 << 3) fieldName = this.str(r.uint32());
      else if (tag === ((2 << 3) | 2)) expr = this.subExpr();
      else r.skip(tag);
    }
    return { field: fieldName, expr: need(expr, `field ${fieldName}`) };
  }

  private builtinLit(end: number): Value {
    const r = this.r;
    let value: Value | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case 1 << 3: value = { kind: 'int64', value: r.sint64() }; break;
        case (2 << 3) | 1: value = { kind: 'timestamp', micros: r.sfixed64() }; break;
        case 3 << 3: value = parseNumericLiteral(this.str(r.uint32())); break;
        case 4 << 3: value = { kind: 'text', value: this.str(r.uint32()) }; break;
        case 5 << 3: value = { kind: 'date', days: r.uint32() }; break;
        case 6 << 3: {
          const n = r.uint32();
          const category = FAILURE_CATEGORIES[n];
          if (!category) throw new PackageFormatError(`unknown failure category ${n}`);
          value = { kind: 'failureCategory', category };
          break;
        }
        case 1001 << 3: {
          const n = r.uint32();
          const mode = ROUNDING_MODES[n];
          if (!mode) throw new PackageFormatError(`unknown rounding mode ${n}`);
          value = { kind: 'roundingMode', mode };
          break;
        }
        default: r.skip(tag);
      }
    }
    // proto3 omits zero-valued scalars: an empty literal is the Int64 0.
    return value ?? { kind: 'int64', value: 0n };
  }

  private caseAlt(end: number): CaseAlt {
    const r = this.r;
    let body: Expr | undefined;
    let make: ((body: Expr) => CaseAlt) | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case (1 << 3) | 2: body = this.subExpr(); break;
        case (2 << 3) | 2: r.skip(tag); make = (b) => ({ kind: 'default', body: b }); break;
        case (3 << 3) | 2: {
          const stop = r.limit();
          let tycon: QualifiedName | undefined;
          let constructor = this.s0, binder = this.s0;
          while (r.pos < stop) {
            const t = r.tag();
            if (t === ((1 << 3) | 2)) tycon = this.defRef(r.limit());
            else if (t === 2 << 3) constructor = this.str(r.uint32());
            else if (t === 3 << 3) binder = this.str(r.uint32());
            else r.skip(t);
          }
          const tc = need(tycon, 'case variant tycon');
          make = (b) => ({ kind: 'variant', tycon: tc, constructor, binder, body: b });
          break;
        }
        case 4 << 3: {
          const n = r.uint32();
          const con = BUILTIN_CON_NAMES[n];
          if (!con) throw new PackageFormatError(`unknown builtin constructor ${n} in a case`);
          make = (b) => ({ kind: 'builtinCon', con, body: b });
          break;
        }
        case (5 << 3) | 2: r.skip(tag); make = (b) => ({ kind: 'nil', body: b }); break;
        case (6 << 3) | 2: {
          const stop = r.limit();
          let head = this.s0, tail = this.s0;
          while (r.pos < stop) {
            const t = r.tag();
            if (t === 1 << 3) head = this.str(r.uint32());
            else if (t === 2 << 3) tail = this.str(r.uint32());
            else r.skip(t);
          }
          make = (b) => ({ kind: 'cons', head, tail, body: b });
          break;
        }
        case (7 << 3) | 2: r.skip(tag); make = (b) => ({ kind: 'optionalNone', body: b }); break;
        case (8 << 3) | 2: {
          const stop = r.limit();
          let binder = this.s0;
          while (r.pos < stop) {
            const t = r.tag();
            if (t === 1 << 3) binder = this.str(r.uint32());
            else r.skip(t);
          }
          make = (b) => ({ kind: 'optionalSome', binder, body: b });
          break;
        }
        case (9 << 3) | 2: {
          const stop = r.limit();
          let tycon: QualifiedName | undefined;
          let constructor = this.s0;
          while (r.pos < stop) {
            const t = r.tag();
            if (t === ((1 << 3) | 2)) tycon = this.defRef(r.limit());
            else if (t === 2 << 3) constructor = this.str(r.uint32());
            else r.skip(t);
          }
          const tc = need(tycon, 'case enum tycon');
          make = (b) => ({ kind: 'enum', tycon: tc, constructor, body: b });
          break;
        }
        default: r.skip(tag);
      }
    }
    if (!make) throw new PackageFormatError('case alternative without a pattern');
    return make(need(body, 'case alternative body'));
  }

  private block(end: number): { bindings: Binding[]; body: Expr } {
    const r = this.r;
    const bindings: Binding[] = [];
    let body: Expr | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === ((1 << 3) | 2)) bindings.push(this.binding(r.limit()));
      else if (tag === ((2 << 3) | 2)) body = this.subExpr();
      else r.skip(tag);
    }
    return { bindings: exact(bindings), body: need(body, 'block body') };
  }

  private binding(end: number): Binding {
    const r = this.r;
    let binder: FieldWithType = { name: '', type: NO_TYPE };
    let bound: Expr | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === ((1 << 3) | 2)) binder = this.fieldWithType(r.limit());
      else if (tag === ((2 << 3) | 2)) bound = this.subExpr();
      else r.skip(tag);
    }
    return { name: binder.name, type: binder.type, bound: need(bound, `binding ${binder.name}`) };
  }

  private update(end: number): Update {
    const r = this.r;
    let update: Update | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      const field = tag >>> 3;
      if ((tag & 7) !== 2) { r.skip(tag); continue; }
      const stop = r.limit();
      update = this.updateCase(field, stop);
      r.pos = stop;
    }
    if (!update) throw new PackageFormatError('empty update');
    return update;
  }

  private updateCase(field: number, end: number): Update {
    const r = this.r;
    switch (field) {
      case 1: { const [type, expr] = this.typeAndExpr(end); return { kind: 'pure', type, expr: need(expr, 'pure.expr') }; }
      case 2: { const b = this.block(end); return { kind: 'block', bindings: b.bindings, body: b.body }; }
      case 3: case 12: case 5: case 14: { // Create, CreateInterface, Fetch, FetchInterface: (ref 1, expr 2)
        let ref: QualifiedName | undefined;
        let expr: Expr | undefined;
        while (r.pos < end) {
          const tag = r.tag();
          if (tag === ((1 << 3) | 2)) ref = this.defRef(r.limit());
          else if (tag === ((2 << 3) | 2)) expr = this.subExpr();
          else r.skip(tag);
        }
        if (field === 3) return { kind: 'create', template: need(ref, 'create.template'), expr: need(expr, 'create.expr') };
        if (field === 12) return { kind: 'createInterface', iface: need(ref, 'create_interface.interface'), expr: need(expr, 'create_interface.expr') };
        if (field === 5) return { kind: 'fetch', template: need(ref, 'fetch.template'), cid: need(expr, 'fetch.cid') };
        return { kind: 'fetchInterface', iface: need(ref, 'fetch_interface.interface'), cid: need(expr, 'fetch_interface.cid') };
      }
      case 4: { // Exercise
        let template: QualifiedName | undefined;
        let choice = this.s0;
        let cid: Expr | undefined, arg: Expr | undefined;
        while (r.pos < end) {
          const tag = r.tag();
          switch (tag) {
            case (1 << 3) | 2: template = this.defRef(r.limit()); break;
            case 6 << 3: choice = this.str(r.uint32()); break;
            case (3 << 3) | 2: cid = this.subExpr(); break;
            case (5 << 3) | 2: arg = this.subExpr(); break;
            default: r.skip(tag);
          }
        }
        return { kind: 'exercise', template: need(template, 'exercise.template'), choice, cid: need(cid, 'exercise.cid'), arg: need(arg, 'exercise.arg') };
      }
      case 10: case 13: { // ExerciseByKey, ExerciseInterface: (ref 1, choice 2, expr 3, expr 4, [guard 5])
        let ref: QualifiedName | undefined;
        let choice = this.s0;
        let e3: Expr | undefined, e4: Expr | undefined, guard: Expr | undefined;
        while (r.pos < end) {
          const tag = r.tag();
          switch (tag) {
            case (1 << 3) | 2: ref = this.defRef(r.limit()); break;
            case 2 << 3: choice = this.str(r.uint32()); break;
            case (3 << 3) | 2: e3 = this.subExpr(); break;
            case (4 << 3) | 2: e4 = this.subExpr(); break;
            case (5 << 3) | 2: guard = this.subExpr(); break;
            default: r.skip(tag);
          }
        }
        if (field === 10) return { kind: 'exerciseByKey', template: need(ref, 'exercise_by_key.template'), choice, key: need(e3, 'exercise_by_key.key'), arg: need(e4, 'exercise_by_key.arg') };
        return { kind: 'exerciseInterface', iface: need(ref, 'exercise_interface.interface'), choice, cid: need(e3, 'exercise_interface.cid'), arg: need(e4, 'exercise_interface.arg'), guard };
      }
      case 6: return { kind: 'getTime' };
      case 8: case 9: case 16: {
        let template: QualifiedName | undefined;
        while (r.pos < end) {
          const tag = r.tag();
          if (tag === ((1 << 3) | 2)) template = this.defRef(r.limit());
          else r.skip(tag);
        }
        const kind = field === 8 ? 'lookupByKey' : field === 9 ? 'fetchByKey' : 'queryNByKey';
        return { kind, template: need(template, `${kind}.template`) };
      }
      case 7: { const [type, expr] = this.typeAndExpr(end); return { kind: 'embedExpr', type, expr: need(expr, 'embed_expr.body') }; }
      case 11: {
        let returnType: Type = NO_TYPE;
        let tryExpr: Expr | undefined, catchExpr: Expr | undefined;
        let binder = this.s0;
        while (r.pos < end) {
          const tag = r.tag();
          switch (tag) {
            case (1 << 3) | 2: returnType = this.type(r.limit()); break;
            case (2 << 3) | 2: tryExpr = this.subExpr(); break;
            case 3 << 3: binder = this.str(r.uint32()); break;
            case (4 << 3) | 2: catchExpr = this.subExpr(); break;
            default: r.skip(tag);
          }
        }
        return { kind: 'tryCatch', returnType, tryExpr: need(tryExpr, 'try_catch.try_expr'), binder, catchExpr: need(catchExpr, 'try_catch.catch_expr') };
      }
      case 15: return { kind: 'ledgerTimeLt', expr: this.expr(end) };
      default: throw new PackageFormatError(`unknown update case ${field}`);
    }
  }

  // ---- definitions -----------------------------------------------------------------------------

  /**
   * A module's definitions by field number (3..8), each reader adding its definition to its map:
   * one call site for every kind, so a kind met late (exceptions, interfaces) does not deoptimize
   * `module`'s optimized code, with each reader inlined, and have it compiled again.
   */
  private static readonly DEFS: readonly ((d: PackageDecoder, end: number, defs: ModuleDefs) => void)[] = [
    (d, end, defs) => { const x = d.defTypeSyn(end); definition(defs, x.name); defs.synonyms.set(x.name, x); },
    (d, end, defs) => { const x = d.defDataType(end); definition(defs, x.name); defs.dataTypes.set(x.name, x); },
    (d, end, defs) => { const x = d.defValue(end); definition(defs, x.name); defs.values.set(x.name, x); },
    (d, end, defs) => { const x = d.defTemplate(end); setOnce(defs.templates, x.name, x, 'template'); },
    (d, end, defs) => { const x = d.defException(end); setOnce(defs.exceptions, x.name, x, 'exception'); },
    (d, end, defs) => { const x = d.defInterface(end); setOnce(defs.interfaces, x.name, x, 'interface'); },
  ];

  private module(end: number): Module {
    const r = this.r;
    let name = this.d0;
    const ranges: [number, Range][] = [];
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === 1 << 3) name = this.dname(r.uint32());
      else if ((tag & 7) === 2 && (tag >>> 3) >= 3 && (tag >>> 3) <= 8) ranges.push([tag >>> 3, this.range()]);
      else r.skip(tag);
    }
    const defs: ModuleDefs = {
      synonyms: new Map(), dataTypes: new Map(), values: new Map(), templates: new Map(), exceptions: new Map(), interfaces: new Map(),
    };
    for (let i = 0; i < ranges.length; i++) {
      const [field, range] = ranges[i]!;
      r.pos = range[0];
      PackageDecoder.DEFS[field - 3]!(this, range[1], defs);
    }
    const { synonyms, dataTypes, values, templates, exceptions, interfaces } = defs;
    return { name, synonyms, dataTypes, values, templates, exceptions, interfaces };
  }

  private defTypeSyn(end: number): DefTypeSyn {
    const r = this.r;
    let name = this.d0;
    const params: TypeVarWithKind[] = [];
    let type: Type = NO_TYPE;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case 2 << 3: name = this.dname(r.uint32()); break;
        case (3 << 3) | 2: params.push(this.typeVar(r.limit())); break;
        case (4 << 3) | 2: type = this.type(r.limit()); break;
        default: r.skip(tag);
      }
    }
    return { name, params: exact(params), type };
  }

  private defDataType(end: number): DefDataType {
    const r = this.r;
    let name = this.d0;
    const params: TypeVarWithKind[] = [];
    let serializable = false;
    let cons: DataCons = { kind: 'interface' };
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case 2 << 3: name = this.dname(r.uint32()); break;
        case (3 << 3) | 2: params.push(this.typeVar(r.limit())); break;
        case 4 << 3: serializable = r.bool(); break;
        case (5 << 3) | 2: case (6 << 3) | 2: {
          const stop = r.limit();
          const fields: FieldWithType[] = [];
          while (r.pos < stop) {
            const t = r.tag();
            if (t === ((1 << 3) | 2)) fields.push(this.fieldWithType(r.limit()));
            else r.skip(t);
          }
          cons = tag >>> 3 === 5
            ? { kind: 'record', fields: exact(fields), fieldNames: fields.map((f) => f.name) }
            : { kind: 'variant', constructors: exact(fields) };
          break;
        }
        case (7 << 3) | 2: cons = { kind: 'enum', constructors: this.ints(r.limit()).map((i) => this.str(i)) }; break;
        case (8 << 3) | 2: r.skip(tag); cons = { kind: 'interface' }; break;
        default: r.skip(tag);
      }
    }
    return { name, params: exact(params), serializable, cons };
  }

  private defValue(end: number): DefValue {
    const r = this.r;
    let name = this.d0;
    let type: Type = NO_TYPE;
    let body: Range | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case (2 << 3) | 2: {
          const stop = r.limit();
          while (r.pos < stop) {
            const t = r.tag();
            if (t === 1 << 3) name = this.dname(r.uint32());
            else if (t === ((2 << 3) | 2)) type = this.type(r.limit());
            else r.skip(t);
          }
          break;
        }
        case (3 << 3) | 2: body = this.range(); break;
        default: r.skip(tag);
      }
    }
    // Bodies are decoded on first use: most of a package's values are never evaluated.
    const range = need(body, `value ${name}`);
    const value = { name, type } as DefValue;
    Object.defineProperty(value, LAZY_BODY, { value: { decoder: this, range, expr: undefined } satisfies LazyBody });
    Object.defineProperty(value, 'expr', { get: PackageDecoder.lazyBody, enumerable: true, configurable: true });
    return value;
  }

  /**
   * `expr` of every decoded value: one getter, its state in the value's LAZY_BODY. A getter made
   * per value (an object literal's `get expr()`) left each value in dictionary mode, every read of
   * its fields a hash look-up; with one shared getter, values share one fast hidden class.
   */
  private static lazyBody(this: { readonly [LAZY_BODY]: LazyBody }): Expr {
    const b = this[LAZY_BODY];
    if (b.expr !== undefined) return b.expr;
    b.expr = b.decoder!.exprAt(b.range);
    // Decoded: the decoder (its tables, its copy of the ranges) is kept only by bodies not read yet.
    b.decoder = undefined;
    return b.expr;
  }

  /** Decodes the expression at `range`, leaving the reader where it was. */
  private exprAt([start, end]: Range): Expr {
    const saved = this.r.pos;
    const savedDepth = this.depth;
    this.r.pos = start;
    try {
      return this.expr(end);
    } finally {
      this.r.pos = saved;
      this.depth = savedDepth;
      this.decoding.clear();
    }
  }

  private templateChoice(end: number): TemplateChoice {
    const r = this.r;
    let name = this.s0, selfBinder = this.s0;
    let consuming = false;
    let controllers: Expr | undefined, observers: Expr | undefined, authorizers: Expr | undefined, update: Expr | undefined;
    let argBinder: FieldWithType = { name: '', type: NO_TYPE };
    let returnType: Type = NO_TYPE;
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case 2 << 3: name = this.str(r.uint32()); break;
        case 3 << 3: consuming = r.bool(); break;
        case (4 << 3) | 2: controllers = this.subExpr(); break;
        case (5 << 3) | 2: observers = this.subExpr(); break;
        case (6 << 3) | 2: argBinder = this.fieldWithType(r.limit()); break;
        case (8 << 3) | 2: returnType = this.type(r.limit()); break;
        case (9 << 3) | 2: update = this.subExpr(); break;
        case 10 << 3: selfBinder = this.str(r.uint32()); break;
        case (1001 << 3) | 2: authorizers = this.subExpr(); break;
        default: r.skip(tag);
      }
    }
    return {
      name, consuming, controllers: need(controllers, `choice ${name} controllers`), observers, authorizers,
      argBinder, selfBinder, returnType, update: need(update, `choice ${name} update`),
    };
  }

  private defTemplate(end: number): DefTemplate {
    const r = this.r;
    let name = this.d0, param = this.s0;
    let precondition: Expr | undefined, signatories: Expr | undefined, observers: Expr | undefined;
    const choices = new Map<string, TemplateChoice>();
    const implementsMap = new Map<string, InterfaceInstance>();
    let key: DefTemplate['key'];
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case 1 << 3: name = this.dname(r.uint32()); break;
        case 2 << 3: param = this.str(r.uint32()); break;
        case (3 << 3) | 2: precondition = this.subExpr(); break;
        case (4 << 3) | 2: signatories = this.subExpr(); break;
        case (6 << 3) | 2: { const c = this.templateChoice(r.limit()); setOnce(choices, c.name, c, 'choice'); break; }
        case (7 << 3) | 2: observers = this.subExpr(); break;
        case (9 << 3) | 2: {
          const stop = r.limit();
          let type: Type = NO_TYPE;
          let body: Expr | undefined, maintainers: Expr | undefined;
          while (r.pos < stop) {
            const t = r.tag();
            if (t === ((1 << 3) | 2)) type = this.type(r.limit());
            else if (t === ((4 << 3) | 2)) body = this.subExpr();
            else if (t === ((3 << 3) | 2)) maintainers = this.subExpr();
            else r.skip(t);
          }
          key = { type, body: need(body, 'key expression'), maintainers: need(maintainers, 'key maintainers') };
          break;
        }
        case (10 << 3) | 2: {
          const instance = this.implementsDef(r.limit());
          setOnce(implementsMap, qualifiedKey(instance.iface), instance, 'interface instance');
          break;
        }
        default: r.skip(tag);
      }
    }
    return {
      name, param, precondition: precondition ?? { kind: 'lit', value: TRUE },
      signatories: need(signatories, `template ${name} signatories`), observers: need(observers, `template ${name} observers`),
      choices, key, implements: implementsMap,
    };
  }

  private implementsDef(end: number): InterfaceInstance {
    const r = this.r;
    let iface: QualifiedName | undefined;
    const methods = new Map<string, Expr>();
    let view: Expr | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === ((1 << 3) | 2)) iface = this.defRef(r.limit());
      else if (tag === ((2 << 3) | 2)) {
        const stop = r.limit();
        while (r.pos < stop) {
          const t = r.tag();
          if (t === ((1 << 3) | 2)) {
            const mstop = r.limit();
            let method = this.s0;
            let value: Expr | undefined;
            while (r.pos < mstop) {
              const u = r.tag();
              if (u === 1 << 3) method = this.str(r.uint32());
              else if (u === ((2 << 3) | 2)) value = this.subExpr();
              else r.skip(u);
            }
            setOnce(methods, method, need(value, `method ${method}`), 'method');
          } else if (t === ((2 << 3) | 2)) view = this.subExpr();
          else r.skip(t);
        }
      } else r.skip(tag);
    }
    return { iface: need(iface, 'implements.interface'), methods, view: need(view, 'implements view') };
  }

  private defInterface(end: number): DefInterface {
    const r = this.r;
    let name = this.d0, param = this.s0;
    const methods = new Map<string, Type>();
    const choices = new Map<string, TemplateChoice>();
    let view: Type = NO_TYPE;
    const requires: QualifiedName[] = [];
    while (r.pos < end) {
      const tag = r.tag();
      switch (tag) {
        case 2 << 3: name = this.dname(r.uint32()); break;
        case (3 << 3) | 2: {
          const stop = r.limit();
          let method = this.s0;
          let type: Type = NO_TYPE;
          while (r.pos < stop) {
            const t = r.tag();
            if (t === 2 << 3) method = this.str(r.uint32());
            else if (t === ((3 << 3) | 2)) type = this.type(r.limit());
            else r.skip(t);
          }
          setOnce(methods, method, type, 'method');
          break;
        }
        case 4 << 3: param = this.str(r.uint32()); break;
        case (5 << 3) | 2: { const c = this.templateChoice(r.limit()); setOnce(choices, c.name, c, 'choice'); break; }
        case (6 << 3) | 2: view = this.type(r.limit()); break;
        case (7 << 3) | 2: requires.push(this.defRef(r.limit())); break;
        default: r.skip(tag);
      }
    }
    return { name, param, methods, choices, view, requires: exact(requires) };
  }

  private defException(end: number): DefException {
    const r = this.r;
    let name = this.d0;
    let message: Expr | undefined;
    while (r.pos < end) {
      const tag = r.tag();
      if (tag === 1 << 3) name = this.dname(r.uint32());
      else if (tag === ((3 << 3) | 2)) message = this.subExpr();
      else r.skip(tag);
    }
    return { name, message: need(message, `exception ${name} message`) };
  }
}

/**
 * Adds a named definition, refusing a second of the same name as Daml's decoder does (its
 * `PackageError`, "Collision on definition name ..."): a map would keep the last one silently.
 */
function setOnce<K, V>(map: Map<K, V>, key: K, value: V, what: string): void {
  if (map.has(key)) throw new PackageFormatError(`Collision on ${what} name ${String(key)}`);
  map.set(key, value);
}

/** Synonyms, data types and values share one namespace (Daml's module `definitions`). */
function definition(defs: ModuleDefs, name: string): void {
  if (defs.synonyms.has(name) || defs.dataTypes.has(name) || defs.values.has(name)) throw new PackageFormatError(`Collision on definition name ${name}`);
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new PackageFormatError(`missing ${what}`);
  return value;
}

/** A Numeric literal's text (`-12.3450000000`): its scale is the number of decimals. */
export function parseNumericLiteral(textForm: string): Value {
  const match = /^(-?)(\d+)\.(\d*)$/.exec(textForm) ?? /^(-?)(\d+)()$/.exec(textForm);
  if (!match) throw new PackageFormatError(`malformed Numeric literal ${JSON.stringify(textForm)}`);
  const [, sign, whole, fraction] = match as unknown as [string, string, string, string];
  const scale = fraction.length;
  if (scale > 37) throw new PackageFormatError(`Numeric literal ${textForm} has scale ${scale} > 37`);
  const unscaled = BigInt(whole + fraction);
  return { kind: 'numeric', scale, unscaled: sign === '-' ? -unscaled : unscaled };
}
