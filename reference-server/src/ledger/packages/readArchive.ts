import { createHash } from 'node:crypto';
import { BinaryReader, WireType } from '@protobuf-ts/runtime';
import { err, ok, type Result } from '../result.js';

/**
 * What a DALF says about itself. A DALF is a Daml-LF `Archive` message
 * (`com/digitalasset/daml/lf/archive/daml_lf.proto`): `hash_function` (1, enum, 0 = SHA256),
 * `payload` (3, the serialised `ArchivePayload`) and `hash` (4, the package id: the lowercase hex
 * SHA-256 of `payload`, which the participant recomputes and compares).
 */
export interface ArchiveInfo {
  readonly packageId: string;
  /** The `ArchivePayload` bytes: what `GET /v2/packages/{id}` returns. */
  readonly payload: Uint8Array;
  /** Daml-LF major and minor version (`2.1`), when the payload names them. */
  readonly lfVersion: string | undefined;
  /** From the package's metadata (Daml-LF >= 1.8), when present. */
  readonly name: string | undefined;
  readonly version: string | undefined;
}

const PACKAGE_ID = /^[0-9a-f]{64}$/;

/** Reads and checks one DALF; the failure is a reason for the participant's DAR_PARSE_ERROR answer (the archive reader's Error.Parsing). */
export function readArchive(bytes: Uint8Array): Result<ArchiveInfo, string> {
  let hashFunction = 0;
  let payload: Uint8Array | undefined;
  let hash = '';
  try {
    const r = new BinaryReader(bytes);
    while (r.pos < r.len) {
      const [field, wire] = r.tag();
      if (field === 1 && wire === WireType.Varint) hashFunction = r.int32();
      else if (field === 3 && wire === WireType.LengthDelimited) payload = r.bytes();
      else if (field === 4 && wire === WireType.LengthDelimited) hash = r.string();
      else r.skip(wire);
    }
  } catch (e) {
    return err(`not a Daml-LF archive (${e instanceof Error ? e.message : 'malformed protobuf'})`);
  }
  if (hashFunction !== 0) return err(`unsupported hash function ${hashFunction}`);
  if (payload === undefined || payload.length === 0) return err('the archive has no payload');
  if (!PACKAGE_ID.test(hash)) return err(`the archive hash '${hash.slice(0, 80)}' is not a SHA-256 hex digest`);
  const actual = createHash('sha256').update(payload).digest('hex');
  if (actual !== hash) return err(`Mismatching hashes! Expected ${hash} but got ${actual}`);
  const meta = readPayload(payload);
  if (!meta.ok) return meta;
  return ok({ packageId: hash, payload, ...meta.value });
}

/**
 * `ArchivePayload`: `minor` (3), then the package as `daml_lf_1` (2) or `daml_lf_2` (4), both
 * length-delimited `Package` messages whose `interned_strings` (2) and `metadata` (4:
 * `name_interned_str` 1, `version_interned_str` 2) give the package's name and version.
 */
function readPayload(payload: Uint8Array): Result<{ lfVersion: string | undefined; name: string | undefined; version: string | undefined }, string> {
  try {
    const r = new BinaryReader(payload);
    let minor: string | undefined;
    let major: string | undefined;
    let pkg: Uint8Array | undefined;
    while (r.pos < r.len) {
      const [field, wire] = r.tag();
      if (field === 3 && wire === WireType.LengthDelimited) minor = r.string();
      else if ((field === 2 || field === 4) && wire === WireType.LengthDelimited) {
        major = field === 2 ? '1' : '2';
        pkg = r.bytes();
      } else r.skip(wire);
    }
    if (pkg === undefined) return err('the archive payload holds no Daml-LF package');
    const { name, version } = readPackageMetadata(pkg);
    return ok({ lfVersion: major === undefined || minor === undefined ? undefined : `${major}.${minor}`, name, version });
  } catch (e) {
    return err(`the archive payload is not a Daml-LF package (${e instanceof Error ? e.message : 'malformed protobuf'})`);
  }
}

function readPackageMetadata(pkg: Uint8Array): { name: string | undefined; version: string | undefined } {
  const r = new BinaryReader(pkg);
  // Where each interned string starts: only the two the metadata names are decoded (a large
  // package interns tens of thousands).
  const strings: number[] = [];
  const metadata = scanPackage(r, strings);
  let nameIndex: number | undefined;
  let versionIndex: number | undefined;
  if (metadata !== undefined) {
    // proto3 leaves out an index of 0: a metadata message without one names interned string 0.
    nameIndex = 0;
    versionIndex = 0;
    r.pos = metadata;
    const m = new BinaryReader(r.bytes());
    while (m.pos < m.len) {
      const [f, w] = m.tag();
      if (f === 1 && w === WireType.Varint) nameIndex = m.int32();
      else if (f === 2 && w === WireType.Varint) versionIndex = m.int32();
      else m.skip(w);
    }
  }
  const string = (index: number | undefined): string | undefined => {
    const at = index === undefined ? undefined : strings[index];
    if (at === undefined) return undefined;
    r.pos = at;
    return r.string();
  };
  return { name: string(nameIndex), version: string(versionIndex) };
}

/**
 * Notes where each interned string starts (in `strings`) and returns where the (last) metadata
 * message starts. A function of its own whose loop is its end: V8 optimizes the loop on the stack
 * while it skips the first package's strings, then reuses that code for every later package, and
 * code there for anything not yet run (the metadata branch, the code after the loop) deoptimized
 * once per package.
 */
function scanPackage(r: BinaryReader, strings: number[]): number | undefined {
  let metadata: number | undefined;
  while (r.pos < r.len) {
    // `r.tag()` and `r.skip()` inline, with their errors: they allocate a pair per tag and a view
    // of each skipped field (tens of MB over a release folder's packages, all garbage).
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field <= 0 || wire > 5) throw new Error(`illegal tag: field no ${field} wire type ${wire}`);
    if (wire !== WireType.LengthDelimited) { r.skip(wire); continue; }
    if (field === 2) strings.push(r.pos);
    else if (field === 4) metadata = r.pos;
    const len = r.uint32();
    r.pos += len;
    if (r.pos > r.len) throw new RangeError('premature EOF');
  }
  return metadata;
}
