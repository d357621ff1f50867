import type { Message } from '../transcript/message.ts';

/**
 * The role of every message as a number into a table of role names: 50,000 messages cross the
 * worker boundary as one typed array instead of 50,000 strings. A role is whatever the file
 * says, so the table is as long as the transcript has distinct roles.
 */
export interface MessageRoles {
  readonly codes: Uint32Array;
  readonly names: readonly string[];
}

export function messageRoles(messages: readonly Message[]): MessageRoles {
  const codes = new Uint32Array(messages.length);
  const names: string[] = [];
  const codeOf = new Map<string, number>();
  for (let index = 0; index < messages.length; index++) {
    const role = String(messages[index]!.role);
    let code = codeOf.get(role);
    if (code === undefined) {
      code = names.length;
      names.push(role);
      codeOf.set(role, code);
    }
    codes[index] = code;
  }
  return { codes, names };
}

/** The role of message `index`, or '' outside the transcript. */
export const roleAt = (roles: MessageRoles, index: number): string =>
  index >= 0 && index < roles.codes.length ? (roles.names[roles.codes[index]!] ?? '') : '';
