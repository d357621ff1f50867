import { hashString } from './hash-string.ts';
import { createSeededRandom, type SeededRandom } from './seeded-random.ts';

// What `sqlite3 -header test.db "SELECT …"` shows after the demo's two test runs: every user
// the suite created through the API, twice over, because the first conftest.py never cleans
// test.db. The rows follow the tests (fixed emails, "Pager" names, random make_user emails),
// so the agent's diagnosis in the demo can be read off the output.

interface UserRow {
  email: string;
  fullName: string;
  role: string;
  isActive: boolean;
  bio?: string;
  timezone?: string;
}

/** Builds a test's rows; `parameterId` is the pytest parameter id of parametrized tests. */
type RowFactory = (random: SeededRandom, parameterId: string) => UserRow[];

const hex = (random: SeededRandom, length: number): string => {
  let text = '';
  for (let index = 0; index < length; index++) text += '0123456789abcdef'[random.integer(0, 15)];
  return text;
};

const userRow = (email: string, fullName: string, role = 'member', isActive = true): UserRow => ({
  email,
  fullName,
  role,
  isActive,
});

const randomUser = (
  random: SeededRandom,
  fullName = 'Test User',
  role = 'member',
  isActive = true,
): UserRow => userRow(`user-${hex(random, 12)}@example.com`, fullName, role, isActive);

const tagged = (
  count: number,
  build: (random: SeededRandom, tag: string, index: number) => UserRow,
): RowFactory => {
  return (random) => {
    const tag = hex(random, 8);
    return Array.from({ length: count }, (_, index) => build(random, tag, index));
  };
};

/** Users each test leaves behind; tests not listed create one default make_user row. */
const ROWS_BY_TEST: { readonly [testName: string]: RowFactory } = {
  test_health_check: () => [],
  test_openapi_lists_user_routes: () => [],
  test_root_redirects_to_docs: () => [],
  test_docs_page_is_served: () => [],
  test_cors_preflight_allows_the_frontend_origin: () => [],
  test_cors_rejects_unknown_origin: () => [],
  test_create_user: () => [userRow('alice@example.com', 'Alice Liddell')],
  test_create_user_lowercases_email: tagged(1, (_, tag) =>
    userRow(`grace.hopper.${tag}@example.com`, 'Test User'),
  ),
  test_create_user_strips_whitespace_from_name: (random) => [randomUser(random, 'Edsger Dijkstra')],
  test_create_user_with_role_and_timezone: (random) => [
    { ...randomUser(random, 'Test User', 'admin'), timezone: 'Europe/Amsterdam', bio: 'Shortest paths.' },
  ],
  test_create_user_duplicate_email_returns_409: (random) => [randomUser(random)],
  test_create_user_duplicate_email_is_case_insensitive: (random) => [randomUser(random)],
  test_create_user_rejects_invalid_payloads: () => [],
  test_create_user_accepts_maximum_length_name: (random) => [randomUser(random, 'N'.repeat(200))],
  test_create_user_rejects_name_over_200_characters: () => [],
  test_create_user_reports_every_invalid_field_at_once: () => [],
  test_create_user_rejects_non_json_body: () => [],
  test_create_user_rejects_password_equal_to_email_name: () => [],
  test_get_user: (random) => [randomUser(random, 'Barbara Liskov')],
  test_get_user_not_found: () => [],
  test_get_user_out_of_range_ids_return_404: () => [],
  test_get_user_with_non_integer_id_returns_422: () => [],
  test_lookup_user_by_email_ignores_case: tagged(1, (_, tag) =>
    userRow(`margaret.hamilton.${tag}@example.com`, 'Test User'),
  ),
  test_lookup_user_unknown_email_returns_404: () => [],
  test_lookup_requires_email_parameter: () => [],
  test_list_users_paginates: (random) =>
    Array.from({ length: 25 }, (_, index) => randomUser(random, `Pager ${String(index).padStart(2, '0')}`)),
  test_list_users_rejects_page_size_over_the_maximum: () => [],
  test_list_users_filters_by_active: tagged(2, (random, tag, index) =>
    index === 0
      ? randomUser(random, `Active ${tag}`)
      : randomUser(random, `Inactive ${tag}`, 'member', false),
  ),
  test_list_users_filters_by_role: tagged(2, (random, tag, index) =>
    index === 0 ? randomUser(random, `Viewer ${tag}`, 'viewer') : randomUser(random, `Member ${tag}`),
  ),
  test_list_users_search_matches_email: tagged(1, (_, tag) =>
    userRow(`katherine.johnson.${tag}@example.org`, 'K. Johnson'),
  ),
  test_list_users_sorted_newest_first_by_default: tagged(2, (random, tag, index) =>
    randomUser(random, `${index === 0 ? 'Older' : 'Newer'} ${tag}`),
  ),
  test_list_users_sort_orders: tagged(3, (_, tag, index) =>
    userRow(`${'abc'[index]}-${tag}@example.com`, `${['Zed', 'Abe', 'Max'][index]} ${tag}`),
  ),
  test_list_users_combines_filters: tagged(
    3,
    (random, tag, index) =>
      [
        randomUser(random, `Admin Active ${tag}`, 'admin'),
        randomUser(random, `Admin Inactive ${tag}`, 'admin', false),
        randomUser(random, `Member Active ${tag}`),
      ][index] ?? randomUser(random),
  ),
  test_list_users_search_without_matches: () => [],
  test_list_users_rejects_empty_search: () => [],
  test_list_users_rejects_page_zero: () => [],
  test_list_users_rejects_unknown_sort: () => [],
  test_list_users_rejects_invalid_query_parameters: () => [],
  test_list_users_accepts_boolean_spellings: () => [],
  test_list_users_page_size_at_the_maximum_is_allowed: () => [],
  test_user_stats_counts_new_users: (random) => [
    randomUser(random, 'Test User', 'viewer'),
    randomUser(random, 'Test User', 'admin', false),
  ],
  test_user_stats_lists_every_role: () => [],
  test_user_stats_is_not_shadowed_by_the_id_route: () => [],
  test_lookup_rejects_email_of_invalid_length: () => [],
  test_delete_route_is_documented_with_its_statuses: () => [],
  test_newer_users_have_later_created_at: (random) => [randomUser(random), randomUser(random)],
  test_deactivation_bumps_updated_at_but_not_created_at: (random) => [
    randomUser(random, 'Test User', 'member', false),
  ],
  test_lookup_is_not_shadowed_by_the_id_route: () => [],
  test_create_user_ids_increase: (random) => [randomUser(random), randomUser(random)],
  test_health_reports_unreachable_database: () => [],
  test_export_users_as_csv: tagged(2, (random, tag, index) =>
    index === 0 ? randomUser(random, `Export ${tag} A`, 'admin') : randomUser(random, `Export ${tag} B`),
  ),
  test_export_csv_has_a_header_even_when_empty: () => [],
  test_export_csv_filters_by_active: tagged(2, (random, tag, index) =>
    index === 0
      ? randomUser(random, `Exp Active ${tag}`)
      : randomUser(random, `Exp Inactive ${tag}`, 'member', false),
  ),
  test_export_csv_quotes_names_with_commas: tagged(1, (random, tag) =>
    randomUser(random, `Hopper, Grace ${tag}`),
  ),
  test_openapi_documents_the_error_bodies: () => [],
  test_unsupported_methods_return_405: () => [],
  test_unknown_path_returns_404: () => [],
  test_responses_are_json: () => [],
  test_delete_user_with_non_integer_id_returns_422: () => [],
  test_list_users_page_count: (random, parameterId) => {
    const totals: { readonly [id: string]: number } = {
      'one-user': 1,
      'exactly-one-page': 10,
      'one-over': 11,
      'partial-last-page': 7,
      'one-per-page': 6,
    };
    const tag = hex(random, 8);
    return Array.from({ length: totals[parameterId] ?? 1 }, (_, index) =>
      randomUser(random, `Count ${tag} ${String(index).padStart(2, '0')}`),
    );
  },
  test_list_users_pages_do_not_overlap: tagged(9, (random, tag, index) =>
    randomUser(random, `Overlap ${tag} ${index}`),
  ),
  test_deactivated_user_cannot_sign_in_but_keeps_data: (random) => [
    { ...randomUser(random, 'Test User', 'member', false), bio: 'still here' },
  ],
  test_update_user_changes_only_given_fields: (random) => [
    { ...randomUser(random, 'After Update'), bio: 'unchanged' },
  ],
  test_update_user_email_conflict_returns_409: (random) => [randomUser(random), randomUser(random)],
  test_update_user_role: (random) => [randomUser(random, 'Test User', 'viewer')],
  test_update_user_normalises_new_email: tagged(1, (_, tag) =>
    userRow(`renamed.${tag}@example.com`, 'Test User'),
  ),
  test_update_user_with_empty_body_changes_nothing: (random) => [randomUser(random, 'Stays The Same')],
  test_update_user_not_found: () => [],
  test_deactivate_user: (random) => [randomUser(random, 'Test User', 'member', false)],
  test_deactivate_is_idempotent: (random) => [randomUser(random, 'Test User', 'member', false)],
  test_deactivated_user_can_still_be_fetched: (random) => [randomUser(random, 'Test User', 'member', false)],
  test_deactivate_unknown_user_returns_404: () => [],
  // Both delete tests delete their user (in the first run the commit happened before refresh() raised).
  test_delete_user: () => [],
  test_delete_user_twice_returns_404: () => [],
  test_delete_user_not_found: () => [],
};

const CRUD_TEST_ROWS: { readonly [testName: string]: number } = {
  test_list_users_page_numbers: 5,
  test_count_users_with_filters: 2,
  test_unknown_sort_falls_back_to_newest_first: 2,
};

export interface TestRun {
  /** Tests in run order, as "tests/<file>::<name>" node ids (parametrized ids included). */
  nodeIds: readonly string[];
  /** Tests whose users were not created, e.g. test_create_user hitting a 409. */
  failedBeforeInsert: ReadonlySet<string>;
  /** "2025-01-14 10:51:02" plus microseconds are added per row. */
  startedAt: string;
}

/** The query the agent runs: every column but the password hash. */
export const LEFTOVER_ROWS_QUERY =
  'SELECT id, email, full_name, role, is_active, bio, timezone, created_at FROM users';

/**
 * `sqlite3 -header test.db "<LEFTOVER_ROWS_QUERY>"` for the given runs: list mode,
 * `|`-separated, NULL printed as nothing.
 */
export function leftoverRowsOutput(runs: readonly TestRun[]): string {
  const lines = ['id|email|full_name|role|is_active|bio|timezone|created_at'];
  let id = 0;
  runs.forEach((run, runIndex) => {
    let elapsedMicroseconds = 0;
    for (const nodeId of run.nodeIds) {
      const [file, fullName = ''] = nodeId.split('::');
      const testName = fullName.replace(/\[.*\]$/, '');
      const parameterId = /\[(.*)\]$/.exec(fullName)?.[1] ?? '';
      if (file?.endsWith('test_security.py') || run.failedBeforeInsert.has(testName)) continue;
      const random = createSeededRandom(hashString(`${runIndex}:${nodeId}`));
      const rows = file?.endsWith('test_crud.py')
        ? Array.from(
            { length: CRUD_TEST_ROWS[testName] ?? (testName === 'test_authenticate_unknown_email' ? 0 : 1) },
            () => userRow(`crud-${hex(random, 12)}@example.com`, 'Crud User'),
          )
        : (ROWS_BY_TEST[testName] ?? ((seeded: SeededRandom) => [randomUser(seeded)]))(random, parameterId);
      for (const row of rows) {
        // Each insert waits for a 600,000-round PBKDF2 hash: about 0.4 s.
        elapsedMicroseconds += 380_000 + random.integer(0, 60_000);
        lines.push(
          [
            ++id,
            row.email,
            row.fullName,
            row.role,
            row.isActive ? 1 : 0,
            row.bio ?? '',
            row.timezone ?? 'UTC',
            timestamp(run.startedAt, elapsedMicroseconds),
          ].join('|'),
        );
      }
    }
  });
  return lines.join('\n') + '\n';
}

function timestamp(startedAt: string, elapsedMicroseconds: number): string {
  const [date = '', time = '00:00:00'] = startedAt.split(' ');
  const [hours = 0, minutes = 0, seconds = 0] = time.split(':').map(Number);
  const totalMicroseconds = ((hours * 60 + minutes) * 60 + seconds) * 1_000_000 + elapsedMicroseconds;
  const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
  const wholeSeconds = Math.floor(totalMicroseconds / 1_000_000);
  return `${date} ${pad(Math.floor(wholeSeconds / 3600))}:${pad(Math.floor(wholeSeconds / 60) % 60)}:${pad(wholeSeconds % 60)}.${pad(totalMicroseconds % 1_000_000, 6)}`;
}
