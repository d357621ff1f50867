/** The CSS variable that colours a role everywhere (bar, list, map). */
export function roleColor(role: string): string {
  switch (role) {
    case 'system':
    case 'user':
    case 'assistant':
    case 'tool':
      return `var(--role-${role})`;
    default:
      return 'var(--role-other)';
  }
}
