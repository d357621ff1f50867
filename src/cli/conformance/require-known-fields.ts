/**
 * A field or step of a vector that its adapter does not understand. Thrown instead of ignoring
 * it, so the case fails with the field's path rather than passing on a partial reading.
 */
export class UnknownVectorFieldError extends Error {
  override readonly name = 'UnknownVectorFieldError';
}

/**
 * Throws unless `value` is an object whose keys are all in `allowed`. `where` names the object
 * in the message (`input.config`, `input.ops[2]`).
 */
export function requireKnownFields(value: unknown, allowed: readonly string[], where: string): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UnknownVectorFieldError(`${where}: expected an object, got ${JSON.stringify(value)}`);
  }
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw new UnknownVectorFieldError(
      `${where}: ${unknown.map((key) => `'${key}'`).join(', ')} not understood (known: ${allowed.join(', ')})`,
    );
  }
}

/** Throws when a step or mode name is not one the adapter implements. */
export function unknownStep(where: string, kind: unknown, known: readonly string[]): never {
  throw new UnknownVectorFieldError(
    `${where}: '${String(kind)}' not understood (known: ${known.join(', ')})`,
  );
}
