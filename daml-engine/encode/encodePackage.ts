/**
 * Encodes an AST package (ast/Package.ts) as a `daml_lf2.proto` Package, the inverse of
 * `decode/decodePackage.ts`, interning as LF 2 does: strings, dotted names and types go to the
 * package's tables (types hash-consed, each table entry naming only earlier ones); kinds and
 * expressions are written in place (their tables are LF 2.dev only).
 *
 * References to `pkg.id` are written as `self_package_id`; other packages by interned id, or by
 * their index in `pkg.imports` when the package has an import table. Proto3 defaults are left out
 * (a zero int32, a false bool) except inside a oneof, where the case itself is the information.
 *
 * What the AST does not keep is not written: locations, module feature flags. Values a literal
 * cannot hold (a party, a list, ...) are refused with an `EncodeError`.
 */
import type { BuiltinName } from '../builtins/Builtin.js';
import type { Binding, CaseAlt, Expr, FieldExpr, TypeConApp, Update } from '../ast/Expr.js';
import type {
  DefDataType, DefException, DefInterface, DefTemplate, DefTypeSyn, DefValue,
  InterfaceInstance, Module, Package, TemplateChoice, TypeVarWithKind,
} from '../ast/Package.js';
import type { BuiltinTypeName, Kind, QualifiedName, Type } from '../ast/Type.js';
import type { Value } from '../value/Value.js';
import { WireWriter } from './WireWriter.js';

/** Something in the AST that has no Daml-LF 2 encoding. */
export class EncodeError extends Error {
  override readonly name = 'EncodeError';
}

const BUILTIN_TYPE_CODES: Readonly<Record<BuiltinTypeName, number>> = {
  UNIT: 0, BOOL: 1, INT64: 2, DATE: 3, TIMESTAMP: 4, NUMERIC: 5, PARTY: 6, TEXT: 7,
  CONTRACT_ID: 8, OPTIONAL: 9, LIST: 10, GENMAP: 11, ANY: 13, ANY_EXCEPTION: 14,
  TYPE_REP: 15, ARROW: 16, UPDATE: 17, FAILURE_CATEGORY: 18, TEXTMAP: 19,
  BIGNUMERIC: 1002, ROUNDING_MODE: 1003,
};

const BUILTIN_FUNCTION_CODES: Readonly<Record<BuiltinName, number>> = {
  TRACE: 0, ERROR: 1, EQUAL: 2, LESS_EQ: 3, LESS: 4, GREATER_EQ: 5, GREATER: 6,
  ADD_INT64: 7, SUB_INT64: 8, MUL_INT64: 9, DIV_INT64: 10, MOD_INT64: 11, EXP_INT64: 12,
  ADD_NUMERIC: 13, SUB_NUMERIC: 14, MUL_NUMERIC: 15, DIV_NUMERIC: 16, ROUND_NUMERIC: 17,
  CAST_NUMERIC: 18, SHIFT_NUMERIC: 19, INT64_TO_NUMERIC: 20, NUMERIC_TO_INT64: 21,
  INT64_TO_TEXT: 22, NUMERIC_TO_TEXT: 23, TIMESTAMP_TO_TEXT: 25, DATE_TO_TEXT: 26,
  PARTY_TO_TEXT: 27, TEXT_TO_PARTY: 28, TEXT_TO_INT64: 29, TEXT_TO_NUMERIC: 30,
  CONTRACT_ID_TO_TEXT: 31, SHA256_TEXT: 32, EXPLODE_TEXT: 33, APPEND_TEXT: 34,
  IMPLODE_TEXT: 35, CODE_POINTS_TO_TEXT: 36, TEXT_TO_CODE_POINTS: 37, DATE_TO_UNIX_DAYS: 38,
  UNIX_DAYS_TO_DATE: 39, TIMESTAMP_TO_UNIX_MICROSECONDS: 40, UNIX_MICROSECONDS_TO_TIMESTAMP: 41,
  COERCE_CONTRACT_ID: 42, FOLDL: 43, FOLDR: 44, EQUAL_LIST: 45,
  GENMAP_EMPTY: 52, GENMAP_INSERT: 53, GENMAP_LOOKUP: 54, GENMAP_DELETE: 55, GENMAP_KEYS: 56,
  GENMAP_VALUES: 57, GENMAP_SIZE: 58, ANY_EXCEPTION_MESSAGE: 59,
  TEXTMAP_EMPTY: 60, TEXTMAP_INSERT: 61, TEXTMAP_LOOKUP: 62, TEXTMAP_DELETE: 63,
  TEXTMAP_TO_LIST: 64, TEXTMAP_SIZE: 65, FAIL_WITH_STATUS: 66,
  KECCAK256_TEXT: 67, SECP256K1_BOOL: 68, HEX_TO_TEXT: 69, TEXT_TO_HEX: 70, SHA256_HEX: 71,
  SECP256K1_WITH_ECDSA_BOOL: 72, SECP256K1_VALIDATE_KEY: 73,
  SCALE_BIGNUMERIC: 2001, PRECISION_BIGNUMERIC: 2002, ADD_BIGNUMERIC: 2003, SUB_BIGNUMERIC: 2004,
  MUL_BIGNUMERIC: 2005, DIV_BIGNUMERIC: 2006, SHIFT_RIGHT_BIGNUMERIC: 2007,
  BIGNUMERIC_TO_NUMERIC: 2008, NUMERIC_TO_BIGNUMERIC: 2009, BIGNUMERIC_TO_TEXT: 2010,
  TYPE_REP_TYCON_NAME: 3011,
};

const ROUNDING_MODE_CODES = { UP: 0, DOWN: 1, CEILING: 2, FLOOR: 3, HALF_UP: 4, HALF_DOWN: 5, HALF_EVEN: 6, UNNECESSARY: 7 } as const;
const FAILURE_CATEGORY_CODES = { INVALID_INDEPENDENT_OF_SYSTEM_STATE: 0, INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER: 1 } as const;
const BUILTIN_CON_CODES = { unit: 0, false: 1, true: 2 } as const;

/** Encodes a package as the `daml_lf_2` bytes of an ArchivePayload. */
export function encodePackage(pkg: Package): Uint8Array {
  return new PackageEncoder(pkg).encode();
}

/** The ArchivePayload (minor version, `daml_lf_2` package) of a package: the bytes its id hashes. */
export function encodePackagePayload(pkg: Package): Uint8Array {
  const match = /^2\.(.+)$/.exec(pkg.lfVersion);
  if (!match) throw new EncodeError(`cannot encode LF version ${JSON.stringify(pkg.lfVersion)}: only Daml-LF 2.x`);
  const w = new WireWriter();
  w.stringField(3, match[1]!);
  w.bytesField(4, encodePackage(pkg));
  return w.finish();
}

/** The text form of a Numeric literal: `-12.3450000000`; scale 0 ends with the dot (`12.`). */
export function numericLiteralText(scale: number, unscaled: bigint): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  return `${negative ? '-' : ''}${whole}.${digits.slice(digits.length - scale)}`;
}

class PackageEncoder {
  private readonly strings = new Map<string, number>();
  private readonly dottedNames = new Map<string, number>();
  private readonly dottedSegments: number[][] = [];
  /** Interned types: by object (decoded packages share them) and by their encoding (hash-consing). */
  private readonly typeByObject = new Map<Type, number>();
  private readonly typeByBytes = new Map<string, number>();
  private readonly typeTable: Uint8Array[] = [];
  private readonly importIndex: Map<string, number> | undefined;
  private w = new WireWriter();

  constructor(private readonly pkg: Package) {
    this.importIndex = pkg.imports && new Map(pkg.imports.map((id, i) => [id, i]));
  }

  encode(): Uint8Array {
    const pkg = this.pkg;
    const body = this.w;
    for (const module of pkg.modules.values()) body.message(1, () => this.module(module));
    const modules = body.finish();
    // Metadata interns strings: before the string table is written.
    let metadata: Uint8Array | undefined;
    if (pkg.metadata) {
      const m = pkg.metadata;
      metadata = this.sub(() => {
        this.strField(1, m.name);
        this.strField(2, m.version);
        if (m.upgradedPackageId !== undefined) this.w.message(3, () => this.strField(1, m.upgradedPackageId!));
      });
    }
    const tables = new WireWriter();
    for (const s of this.strings.keys()) tables.stringField(2, s);
    for (const segments of this.dottedSegments) {
      tables.message(3, () => {
        if (segments.length === 0) return;
        tables.tag(1, 2);
        const packed = new WireWriter();
        for (const s of segments) packed.varint32(s);
        tables.bytes(packed.finish());
      });
    }
    if (metadata) tables.bytesField(4, metadata);
    for (const t of this.typeTable) tables.bytesField(5, t);
    if (pkg.imports !== undefined) {
      tables.message(9, () => { for (const id of pkg.imports!) tables.stringField(1, id); });
    }
    // Modules (field 1) come first, as protobuf writes fields in number order.
    const rest = tables.finish();
    const result = new Uint8Array(modules.length + rest.length);
    result.set(modules, 0);
    result.set(rest, modules.length);
    return result;
  }

  /** Writes with a fresh writer and returns its bytes (a sub-message's body). */
  private sub(body: () => void): Uint8Array {
    const saved = this.w;
    this.w = new WireWriter();
    try {
      body();
      return this.w.finish();
    } finally {
      this.w = saved;
    }
  }

  // ---- interning -------------------------------------------------------------------------------

  private str(s: string): number {
    let i = this.strings.get(s);
    if (i === undefined) { i = this.strings.size; this.strings.set(s, i); }
    return i;
  }

  private dname(name: string): number {
    let i = this.dottedNames.get(name);
    if (i === undefined) {
      i = this.dottedSegments.length;
      this.dottedNames.set(name, i);
      this.dottedSegments.push(name.split('.').map((seg) => this.str(seg)));
    }
    return i;
  }

  /** A plain (non-oneof) interned-string field: left out when it is index 0, as proto3 does. */
  private strField(field: number, s: string): void {
    const i = this.str(s);
    if (i !== 0) this.w.int32Field(field, i);
  }

  private dnameField(field: number, name: string): void {
    const i = this.dname(name);
    if (i !== 0) this.w.int32Field(field, i);
  }

  private boolField(field: number, b: boolean): void {
    if (b) this.w.boolField(field, true);
  }

  // ---- names -----------------------------------------------------------------------------------

  private moduleId(field: number, packageId: string, module: string): void {
    this.w.message(field, () => {
      this.w.message(1, () => {
        if (packageId === this.pkg.id) this.w.unitField(1);
        else {
          const index = this.importIndex?.get(packageId);
          if (index !== undefined) this.w.int32Field(4, index);
          else this.w.int32Field(3, this.str(packageId));
        }
      });
      this.dnameField(2, module);
    });
  }

  /** TypeConId / TypeSynId / ValueId. */
  private defRef(field: number, name: QualifiedName): void {
    this.w.message(field, () => {
      this.moduleId(1, name.packageId, name.module);
      this.dnameField(2, name.name);
    });
  }

  // ---- kinds and types -------------------------------------------------------------------------

  private kind(field: number, k: Kind): void {
    this.w.message(field, () => {
      switch (k.kind) {
        case 'star': this.w.unitField(1); return;
        case 'nat': this.w.unitField(3); return;
        case 'arrow':
          this.w.message(2, () => {
            for (const p of k.params) this.kind(1, p);
            this.kind(2, k.result);
          });
      }
    });
  }

  /** A `Type` field: a reference to the type's entry in the interning table. */
  private type(field: number, t: Type): void {
    const index = this.internType(t);
    this.w.message(field, () => this.w.int32Field(8, index));
  }

  private internType(t: Type): number {
    const known = this.typeByObject.get(t);
    if (known !== undefined) return known;
    const bytes = this.sub(() => this.typeBody(t));
    const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
    let index = this.typeByBytes.get(key);
    if (index === undefined) {
      index = this.typeTable.length;
      this.typeTable.push(bytes);
      this.typeByBytes.set(key, index);
    }
    this.typeByObject.set(t, index);
    return index;
  }

  /** One type's own message, its sub-types interned first (so they get smaller indices). */
  private typeBody(t: Type): void {
    const w = this.w;
    switch (t.kind) {
      case 'var':
        w.message(1, () => {
          for (const a of t.args) this.type(2, a);
          this.strField(3, t.name);
        });
        return;
      case 'con': case 'syn': {
        const ref = t.kind === 'con' ? t.tycon : t.tysyn;
        w.message(t.kind === 'con' ? 2 : 7, () => {
          this.defRef(1, ref);
          for (const a of t.args) this.type(2, a);
        });
        return;
      }
      case 'builtin': {
        const code = BUILTIN_TYPE_CODES[t.builtin];
        if (code === undefined) throw new EncodeError(`unknown builtin type ${String(t.builtin)}`);
        w.message(3, () => {
          if (code !== 0) w.int32Field(1, code);
          for (const a of t.args) this.type(2, a);
        });
        return;
      }
      case 'forall':
        w.message(4, () => {
          for (const v of t.vars) this.typeVar(1, v);
          this.type(2, t.body);
        });
        return;
      case 'struct':
        w.message(5, () => { for (const f of t.fields) this.fieldWithType(1, f); });
        return;
      case 'nat': w.sint64Field(6, BigInt(t.value)); return;
      case 'app':
        w.message(9, () => {
          this.type(1, t.lhs);
          this.type(2, t.rhs);
        });
        return;
      default: throw new EncodeError(`unknown type ${(t as { kind: string }).kind}`);
    }
  }

  private typeVar(field: number, v: TypeVarWithKind): void {
    this.w.message(field, () => {
      this.kind(2, v.kind);
      this.strField(3, v.name);
    });
  }

  /** FieldWithType and VarWithType (type 2, name 3). */
  private fieldWithType(field: number, f: { readonly name: string; readonly type: Type }): void {
    this.w.message(field, () => {
      this.type(2, f.type);
      this.strField(3, f.name);
    });
  }

  private typeConApp(field: number, c: TypeConApp): void {
    this.w.message(field, () => {
      this.defRef(1, c.tycon);
      for (const a of c.args) this.type(2, a);
    });
  }

  // ---- expressions -----------------------------------------------------------------------------

  private expr(field: number, e: Expr): void {
    this.w.message(field, () => this.exprBody(e));
  }

  private exprBody(e: Expr): void {
    const w = this.w;
    switch (e.kind) {
      case 'var': w.int32Field(2, this.str(e.name)); return;
      case 'val': this.defRef(3, e.ref); return;
      case 'builtin': {
        const code = BUILTIN_FUNCTION_CODES[e.builtin];
        if (code === undefined) throw new EncodeError(`unknown builtin function ${String(e.builtin)}`);
        w.int32Field(4, code);
        return;
      }
      case 'lit': this.literal(e.value); return;
      case 'recCon':
        w.message(7, () => {
          this.typeConApp(1, e.tycon);
          for (const f of e.fields) this.fieldExpr(2, f);
        });
        return;
      case 'recProj':
        w.message(8, () => {
          this.typeConApp(1, e.tycon);
          this.expr(3, e.record);
          this.strField(4, e.field);
        });
        return;
      case 'recUpd':
        w.message(9, () => {
          this.typeConApp(1, e.tycon);
          this.strField(2, e.field);
          this.expr(3, e.record);
          this.expr(4, e.update);
        });
        return;
      case 'variantCon':
        w.message(10, () => {
          this.typeConApp(1, e.tycon);
          this.strField(2, e.constructor);
          this.expr(3, e.arg);
        });
        return;
      case 'enumCon':
        w.message(11, () => {
          this.defRef(1, e.tycon);
          this.strField(2, e.constructor);
        });
        return;
      case 'structCon': w.message(12, () => { for (const f of e.fields) this.fieldExpr(1, f); }); return;
      case 'structProj':
        w.message(13, () => {
          this.strField(1, e.field);
          this.expr(2, e.struct);
        });
        return;
      case 'structUpd':
        w.message(14, () => {
          this.strField(1, e.field);
          this.expr(2, e.struct);
          this.expr(3, e.update);
        });
        return;
      case 'app':
        w.message(15, () => {
          this.expr(1, e.fun);
          for (const a of e.args) this.expr(2, a);
        });
        return;
      case 'tyApp':
        w.message(16, () => {
          this.expr(1, e.expr);
          for (const t of e.types) this.type(2, t);
        });
        return;
      case 'abs':
        w.message(17, () => {
          for (const p of e.params) this.fieldWithType(1, p);
          this.expr(2, e.body);
        });
        return;
      case 'tyAbs':
        w.message(18, () => {
          for (const p of e.params) this.typeVar(1, p);
          this.expr(2, e.body);
        });
        return;
      case 'case':
        w.message(19, () => {
          this.expr(1, e.scrut);
          for (const a of e.alts) this.caseAlt(2, a);
        });
        return;
      case 'let': w.message(20, () => this.block(e.bindings, e.body)); return;
      case 'nil': w.message(21, () => this.type(1, e.type)); return;
      case 'cons':
        w.message(22, () => {
          this.type(1, e.type);
          for (const f of e.front) this.expr(2, f);
          this.expr(3, e.tail);
        });
        return;
      case 'update': w.message(23, () => this.update(e.update)); return;
      case 'optionalNone': w.message(25, () => this.type(1, e.type)); return;
      case 'optionalSome': this.typeAndExpr(26, e.type, e.value); return;
      case 'toAny': this.typeAndExpr(27, e.type, e.expr); return;
      case 'fromAny': this.typeAndExpr(28, e.type, e.expr); return;
      case 'typeRep': {
        // `type_rep` is a Type message itself, not a reference field: the interned index inside it.
        const index = this.internType(e.type);
        w.message(29, () => w.int32Field(8, index));
        return;
      }
      case 'toAnyException': this.typeAndExpr(30, e.type, e.expr); return;
      case 'fromAnyException': this.typeAndExpr(31, e.type, e.expr); return;
      case 'throw':
        w.message(32, () => {
          this.type(1, e.returnType);
          this.type(2, e.exceptionType);
          this.expr(3, e.expr);
        });
        return;
      case 'toInterface': this.twoRefs(33, e.iface, e.template, e.expr, undefined); return;
      case 'fromInterface': this.twoRefs(34, e.iface, e.template, e.expr, undefined); return;
      case 'callInterface':
        w.message(35, () => {
          this.defRef(1, e.iface);
          this.strField(2, e.method);
          this.expr(3, e.expr);
        });
        return;
      case 'signatoryInterface': this.refAndExpr(36, e.iface, e.expr); return;
      case 'observerInterface': this.refAndExpr(37, e.iface, e.expr); return;
      case 'viewInterface': this.refAndExpr(38, e.iface, e.expr); return;
      case 'unsafeFromInterface': this.twoRefs(39, e.iface, e.template, e.cid, e.expr); return;
      case 'interfaceTemplateTypeRep': this.refAndExpr(40, e.iface, e.expr); return;
      case 'toRequiredInterface': this.twoRefs(41, e.required, e.requiring, e.expr, undefined); return;
      case 'fromRequiredInterface': this.twoRefs(42, e.required, e.requiring, e.expr, undefined); return;
      case 'unsafeFromRequiredInterface': this.twoRefs(43, e.required, e.requiring, e.cid, e.expr); return;
      case 'choiceController': case 'choiceObserver':
        w.message(e.kind === 'choiceController' ? 1001 : 1002, () => {
          this.defRef(1, e.template);
          this.strField(2, e.choice);
          this.expr(3, e.contract);
          this.expr(4, e.arg);
        });
        return;
      case 'experimental':
        w.message(9999, () => {
          if (e.name !== '') w.stringField(1, e.name);
          this.type(2, e.type);
        });
        return;
      default: throw new EncodeError(`unknown expression ${(e as { kind: string }).kind}`);
    }
  }

  /** `()`, `True` and `False` are builtin constructors; the rest `BuiltinLit`s. */
  private literal(v: Value): void {
    const w = this.w;
    switch (v.kind) {
      case 'unit': w.int32Field(5, BUILTIN_CON_CODES.unit); return;
      case 'bool': w.int32Field(5, v.value ? BUILTIN_CON_CODES.true : BUILTIN_CON_CODES.false); return;
      case 'int64': w.message(6, () => w.sint64Field(1, v.value)); return;
      case 'timestamp': w.message(6, () => w.sfixed64Field(2, v.micros)); return;
      case 'numeric': w.message(6, () => w.int32Field(3, this.str(numericLiteralText(v.scale, v.unscaled)))); return;
      case 'text': w.message(6, () => w.int32Field(4, this.str(v.value))); return;
      case 'date': w.message(6, () => w.int32Field(5, v.days)); return;
      case 'failureCategory': w.message(6, () => w.int32Field(6, FAILURE_CATEGORY_CODES[v.category])); return;
      case 'roundingMode': w.message(6, () => w.int32Field(1001, ROUNDING_MODE_CODES[v.mode])); return;
      default: throw new EncodeError(`a ${v.kind} value has no Daml-LF literal`);
    }
  }

  private fieldExpr(field: number, f: FieldExpr): void {
    this.w.message(field, () => {
      this.expr(2, f.expr);
      this.strField(3, f.field);
    });
  }

  private typeAndExpr(field: number, type: Type, expr: Expr): void {
    this.w.message(field, () => {
      this.type(1, type);
      this.expr(2, expr);
    });
  }

  private refAndExpr(field: number, ref: QualifiedName, expr: Expr): void {
    this.w.message(field, () => {
      this.defRef(1, ref);
      this.expr(2, expr);
    });
  }

  private twoRefs(field: number, a: QualifiedName, b: QualifiedName, e1: Expr, e2: Expr | undefined): void {
    this.w.message(field, () => {
      this.defRef(1, a);
      this.defRef(2, b);
      this.expr(3, e1);
      if (e2) this.expr(4, e2);
    });
  }

  private caseAlt(field: number, a: CaseAlt): void {
    const w = this.w;
    w.message(field, () => {
      this.expr(1, a.body);
      switch (a.kind) {
        case 'default': w.unitField(2); return;
        case 'variant':
          w.message(3, () => {
            this.defRef(1, a.tycon);
            this.strField(2, a.constructor);
            this.strField(3, a.binder);
          });
          return;
        case 'builtinCon': w.int32Field(4, BUILTIN_CON_CODES[a.con]); return;
        case 'nil': w.unitField(5); return;
        case 'cons':
          w.message(6, () => {
            this.strField(1, a.head);
            this.strField(2, a.tail);
          });
          return;
        case 'optionalNone': w.unitField(7); return;
        case 'optionalSome': w.message(8, () => this.strField(1, a.binder)); return;
        case 'enum':
          w.message(9, () => {
            this.defRef(1, a.tycon);
            this.strField(2, a.constructor);
          });
          return;
        default: throw new EncodeError(`unknown case alternative ${(a as { kind: string }).kind}`);
      }
    });
  }

  /** Block (bindings 1, body 2). */
  private block(bindings: readonly Binding[], body: Expr): void {
    for (const b of bindings) {
      this.w.message(1, () => {
        this.fieldWithType(1, b);
        this.expr(2, b.bound);
      });
    }
    this.expr(2, body);
  }

  private update(u: Update): void {
    const w = this.w;
    switch (u.kind) {
      case 'pure': this.typeAndExpr(1, u.type, u.expr); return;
      case 'block': w.message(2, () => this.block(u.bindings, u.body)); return;
      case 'create': this.refAndExpr(3, u.template, u.expr); return;
      case 'createInterface': this.refAndExpr(12, u.iface, u.expr); return;
      case 'fetch': this.refAndExpr(5, u.template, u.cid); return;
      case 'fetchInterface': this.refAndExpr(14, u.iface, u.cid); return;
      case 'exercise':
        w.message(4, () => {
          this.defRef(1, u.template);
          this.expr(3, u.cid);
          this.expr(5, u.arg);
          this.strField(6, u.choice);
        });
        return;
      case 'exerciseByKey': case 'exerciseInterface': {
        const isKey = u.kind === 'exerciseByKey';
        w.message(isKey ? 10 : 13, () => {
          this.defRef(1, isKey ? u.template : u.iface);
          this.strField(2, u.choice);
          this.expr(3, isKey ? u.key : u.cid);
          this.expr(4, u.arg);
          if (!isKey && u.guard) this.expr(5, u.guard);
        });
        return;
      }
      case 'getTime': w.unitField(6); return;
      case 'lookupByKey': case 'fetchByKey': case 'queryNByKey':
        w.message(u.kind === 'lookupByKey' ? 8 : u.kind === 'fetchByKey' ? 9 : 16, () => this.defRef(1, u.template));
        return;
      case 'embedExpr': this.typeAndExpr(7, u.type, u.expr); return;
      case 'tryCatch':
        w.message(11, () => {
          this.type(1, u.returnType);
          this.expr(2, u.tryExpr);
          this.strField(3, u.binder);
          this.expr(4, u.catchExpr);
        });
        return;
      case 'ledgerTimeLt': this.expr(15, u.expr); return;
      default: throw new EncodeError(`unknown update ${(u as { kind: string }).kind}`);
    }
  }

  // ---- definitions -----------------------------------------------------------------------------

  private module(m: Module): void {
    this.dnameField(1, m.name);
    for (const d of m.synonyms.values()) this.w.message(3, () => this.defTypeSyn(d));
    for (const d of m.dataTypes.values()) this.w.message(4, () => this.defDataType(d));
    for (const d of m.values.values()) this.w.message(5, () => this.defValue(d));
    for (const d of m.templates.values()) this.w.message(6, () => this.defTemplate(d));
    for (const d of m.exceptions.values()) this.w.message(7, () => this.defException(d));
    for (const d of m.interfaces.values()) this.w.message(8, () => this.defInterface(d));
  }

  private defTypeSyn(d: DefTypeSyn): void {
    this.dnameField(2, d.name);
    for (const p of d.params) this.typeVar(3, p);
    this.type(4, d.type);
  }

  private defDataType(d: DefDataType): void {
    const w = this.w;
    this.dnameField(2, d.name);
    for (const p of d.params) this.typeVar(3, p);
    this.boolField(4, d.serializable);
    const cons = d.cons;
    switch (cons.kind) {
      case 'record': w.message(5, () => { for (const f of cons.fields) this.fieldWithType(1, f); }); return;
      case 'variant': w.message(6, () => { for (const f of cons.constructors) this.fieldWithType(1, f); }); return;
      case 'enum':
        w.message(7, () => {
          if (cons.constructors.length === 0) return;
          const indices = cons.constructors.map((c) => this.str(c));
          w.tag(2, 2);
          const packed = new WireWriter();
          for (const i of indices) packed.varint32(i);
          w.bytes(packed.finish());
        });
        return;
      case 'interface': w.unitField(8);
    }
  }

  private defValue(d: DefValue): void {
    this.w.message(2, () => {
      this.dnameField(1, d.name);
      this.type(2, d.type);
    });
    this.expr(3, d.expr);
  }

  private choice(field: number, c: TemplateChoice): void {
    this.w.message(field, () => {
      this.strField(2, c.name);
      this.boolField(3, c.consuming);
      this.expr(4, c.controllers);
      if (c.observers) this.expr(5, c.observers);
      this.fieldWithType(6, c.argBinder);
      this.type(8, c.returnType);
      this.expr(9, c.update);
      this.strField(10, c.selfBinder);
      if (c.authorizers) this.expr(1001, c.authorizers);
    });
  }

  private defTemplate(d: DefTemplate): void {
    this.dnameField(1, d.name);
    this.strField(2, d.param);
    this.expr(3, d.precondition);
    this.expr(4, d.signatories);
    for (const c of d.choices.values()) this.choice(6, c);
    this.expr(7, d.observers);
    const key = d.key;
    if (key) {
      this.w.message(9, () => {
        this.type(1, key.type);
        this.expr(3, key.maintainers);
        this.expr(4, key.body);
      });
    }
    for (const i of d.implements.values()) this.w.message(10, () => this.implementsDef(i));
  }

  private implementsDef(i: InterfaceInstance): void {
    this.defRef(1, i.iface);
    this.w.message(2, () => {
      for (const [method, value] of i.methods) {
        this.w.message(1, () => {
          this.strField(1, method);
          this.expr(2, value);
        });
      }
      this.expr(2, i.view);
    });
  }

  private defInterface(d: DefInterface): void {
    this.dnameField(2, d.name);
    for (const [method, type] of d.methods) {
      this.w.message(3, () => {
        this.strField(2, method);
        this.type(3, type);
      });
    }
    this.strField(4, d.param);
    for (const c of d.choices.values()) this.choice(5, c);
    this.type(6, d.view);
    for (const r of d.requires) this.defRef(7, r);
  }

  private defException(d: DefException): void {
    this.dnameField(1, d.name);
    this.expr(3, d.message);
  }
}

