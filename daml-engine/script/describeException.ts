/** How the Daml Script runner names an exception in its failures. */
import type { Evaluator } from '../eval/Evaluator.js';
import type { AnyExceptionValue } from '../value/Value.js';

/** `Module:Type: message` of an exception, its message computed by Daml (`ANY_EXCEPTION_MESSAGE`). */
export function describeException(evaluator: Evaluator, exception: AnyExceptionValue): string {
  const tycon = exception.type.kind === 'con' ? `${exception.type.tycon.module}:${exception.type.tycon.name}` : 'an exception';
  const message = evaluator.evaluate({ kind: 'app', fun: { kind: 'builtin', builtin: 'ANY_EXCEPTION_MESSAGE' }, args: [{ kind: 'lit', value: exception }] });
  return `${tycon}: ${message.ok && message.value.kind === 'text' ? message.value.value : '<its message could not be computed>'}`;
}
