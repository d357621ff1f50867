/**
 * JSON text of a value taken from an imported file, or undefined when it cannot be written
 * (a structure too deep for the engine's recursive stringifier, a BigInt): imported data must
 * never make the importer throw.
 */
export function stringifyJsonValue(value: unknown): string | undefined {
  try {
    const text = JSON.stringify(value);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
