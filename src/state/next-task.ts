/**
 * Resolves in a later task. A worker's reply is deserialised in the task it arrives in, and what
 * the page then draws from it would run in that same task: awaiting this first splits the two,
 * so a large transcript's reply is two tasks under 50 ms rather than one long frame.
 */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
