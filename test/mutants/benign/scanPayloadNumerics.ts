import type { Fault } from '../mutantProxy.js';
import { scanPayloadStrings } from './jsonWalk.js';

/**
 * Scan's contract payloads (Daml-LF JSON) with their Numerics written without trailing zeros
 * ("0.0050000000" as "0.005", "1.0000000000" as "1.0"): the JSON encoding of a Numeric is a
 * decimal string, of any number of places up to its scale ("a single Daml-LF value can correspond
 * to multiple JSON encodings", docs.daml.com json-api/lf-value-specification), and Splice's Scan
 * encodes payloads with its own codec, not the participant's. Numbers are what a payload's
 * strings of digits with a point are; Int64s (round numbers, microseconds) have none and stay.
 */
const NUMERIC = /^-?\d+\.\d+$/;
const short = (s: string) => s.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '.0');

export const scanPayloadNumerics: Fault = scanPayloadStrings((s) => (NUMERIC.test(s) ? short(s) : s));
