/** Ends an exhaustive switch: adding a union member without handling it fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
