// The OpenAPI document FastAPI 0.115 (Pydantic 2.10) generates for the demo app, which the
// agent fetches during its smoke test. Built from small helpers rather than written out,
// so it stays consistent with app/main.py and app/schemas.py.

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

const jsonBody = (schema: Json): Json => ({ 'application/json': { schema } });

const validationErrorResponse: Json = {
  description: 'Validation Error',
  content: jsonBody(ref('HTTPValidationError')),
};

const exampleResponse = (description: string, example: Json): Json => ({
  description,
  content: { 'application/json': { example } },
});

const notFound = exampleResponse('No user with this id', { detail: 'User 42 not found' });
const conflict = exampleResponse('The email address is already registered', {
  detail: 'Email ada@example.com is already registered',
});

const userIdParameter: Json = {
  name: 'user_id',
  in: 'path',
  required: true,
  schema: { type: 'integer', title: 'User Id' },
};

function queryParameter(
  name: string,
  title: string,
  schema: { [key: string]: Json },
  required = false,
): Json {
  const description = schema.description;
  return {
    name,
    in: 'query',
    required,
    schema: { ...schema, title },
    ...(typeof description === 'string' ? { description } : {}),
  };
}

function operation(
  functionName: string,
  method: string,
  path: string,
  description: string,
  responses: { [status: string]: Json },
  extra: { [key: string]: Json } = {},
): Json {
  const summary = functionName
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
  const pathPart = path.replace(/[{}]/g, '').replace(/\//g, '_');
  return {
    tags: [path === '/health' ? 'meta' : 'users'],
    summary,
    description,
    operationId: `${functionName}${pathPart}_${method}`,
    ...extra,
    // FastAPI documents the 422 only for operations that take parameters or a body.
    responses:
      'parameters' in extra || 'requestBody' in extra
        ? { ...responses, '422': validationErrorResponse }
        : responses,
  };
}

const ok = (schemaName: string): Json => ({
  description: 'Successful Response',
  content: jsonBody(ref(schemaName)),
});

const nullable = (
  schema: { [key: string]: Json },
  title: string,
  extra: { [key: string]: Json } = {},
): Json => ({
  anyOf: [schema, { type: 'null' }],
  ...extra,
  title,
});

const roles: Json = ['member', 'admin', 'viewer'];
const timezonePattern = '^[A-Za-z_]+(/[A-Za-z0-9_+\\-]+)*$';

function userFieldSchemas(optional: boolean): { [key: string]: Json } {
  const wrap = (schema: { [key: string]: Json }, title: string, fallback?: Json): Json =>
    optional
      ? nullable(schema, title)
      : { ...schema, title, ...(fallback === undefined ? {} : { default: fallback }) };
  return {
    email: wrap({ type: 'string', format: 'email' }, 'Email'),
    full_name: wrap({ type: 'string', maxLength: 200, minLength: 1 }, 'Full Name'),
    role: wrap({ type: 'string', enum: roles }, 'Role', 'member'),
    bio: nullable({ type: 'string', maxLength: 2000 }, 'Bio'),
    timezone: wrap({ type: 'string', maxLength: 64, pattern: timezonePattern }, 'Timezone', 'UTC'),
  };
}

/** The document as FastAPI serves it at /openapi.json (compact JSON). */
export function demoOpenApiDocument(): string {
  const document: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Users API',
      description:
        'CRUD API for user accounts with pagination, filtering and deactivation.\n\nEmails are unique and case-insensitive. Passwords are write-only: they are hashed with PBKDF2 and never returned.',
      version: '0.1.0',
    },
    paths: {
      '/health': {
        get: operation(
          'health',
          'get',
          '/health',
          'Liveness and database connectivity in one cheap call (for load balancers).',
          {
            '200': ok('HealthStatus'),
          },
        ),
      },
      '/users': {
        post: operation(
          'create_user',
          'post',
          '/users',
          'Register a new user. Emails are unique, compared case-insensitively.',
          { '201': ok('UserRead'), '409': conflict },
          { requestBody: { required: true, content: jsonBody(ref('UserCreate')) } },
        ),
        get: operation(
          'list_users',
          'get',
          '/users',
          'List users, newest first by default, with optional filters.',
          { '200': ok('UserPage') },
          {
            parameters: [
              queryParameter('page', 'Page', {
                type: 'integer',
                minimum: 1,
                description: '1-based page number',
                default: 1,
              }),
              queryParameter('page_size', 'Page Size', {
                type: 'integer',
                maximum: 100,
                minimum: 1,
                description: 'Users per page',
                default: 20,
              }),
              queryParameter('search', 'Search', {
                anyOf: [{ type: 'string', maxLength: 100, minLength: 1 }, { type: 'null' }],
                description: 'Substring of the name or email',
              }),
              queryParameter('is_active', 'Is Active', {
                anyOf: [{ type: 'boolean' }, { type: 'null' }],
                description: 'Only active or inactive users',
              }),
              queryParameter('role', 'Role', {
                anyOf: [{ enum: roles, type: 'string' }, { type: 'null' }],
                description: 'Only users with this role',
              }),
              queryParameter('sort', 'Sort', {
                enum: ['created_at', '-created_at', 'email', '-email', 'full_name', '-full_name'],
                type: 'string',
                description: 'Order; prefix with - for descending',
                default: '-created_at',
              }),
            ],
          },
        ),
      },
      '/users/export.csv': {
        get: operation(
          'export_users',
          'get',
          '/users/export.csv',
          "Download the users matching the filters as CSV (same filters as GET /users).\n\nRows are written as they are read, so exporting a large table doesn't hold\nit all in memory.",
          { '200': { description: 'All matching users as CSV', content: { 'text/csv': {} } } },
          {
            parameters: [
              queryParameter('search', 'Search', {
                anyOf: [{ type: 'string', maxLength: 100, minLength: 1 }, { type: 'null' }],
              }),
              queryParameter('is_active', 'Is Active', { anyOf: [{ type: 'boolean' }, { type: 'null' }] }),
              queryParameter('role', 'Role', { anyOf: [{ enum: roles, type: 'string' }, { type: 'null' }] }),
            ],
          },
        ),
      },
      '/users/stats': {
        get: operation(
          'user_stats',
          'get',
          '/users/stats',
          'Head counts: all users, active and inactive ones, and users per role.\n\nDeclared before /users/{user_id}, like /users/lookup, so the path matches.',
          { '200': ok('UserStats') },
        ),
      },
      '/users/lookup': {
        get: operation(
          'lookup_user',
          'get',
          '/users/lookup',
          'Find a user by email address (case-insensitive exact match).\n\nDeclared before /users/{user_id} so that "lookup" is not parsed as an id.',
          {
            '200': ok('UserRead'),
            '404': exampleResponse('No user with this email', {
              detail: 'No user with email ada@example.com',
            }),
          },
          {
            parameters: [
              queryParameter(
                'email',
                'Email',
                { type: 'string', maxLength: 320, minLength: 3, description: 'Exact email, any case' },
                true,
              ),
            ],
          },
        ),
      },
      '/users/{user_id}': {
        get: operation(
          'get_user',
          'get',
          '/users/{user_id}',
          'Fetch one user by id.',
          { '200': ok('UserRead'), '404': notFound },
          {
            parameters: [userIdParameter],
          },
        ),
        patch: operation(
          'update_user',
          'patch',
          '/users/{user_id}',
          'Change some fields of a user. Send only the fields you want to change.',
          { '200': ok('UserRead'), '404': notFound, '409': conflict },
          {
            parameters: [userIdParameter],
            requestBody: { required: true, content: jsonBody(ref('UserUpdate')) },
          },
        ),
        delete: operation(
          'delete_user',
          'delete',
          '/users/{user_id}',
          'Delete a user for good and return the deleted record.',
          { '200': ok('UserRead'), '404': notFound },
          { parameters: [userIdParameter] },
        ),
      },
      '/users/{user_id}/deactivate': {
        post: operation(
          'deactivate_user',
          'post',
          '/users/{user_id}/deactivate',
          'Disable an account without deleting its data. Idempotent.',
          { '200': ok('UserRead'), '404': notFound },
          { parameters: [userIdParameter] },
        ),
      },
      '/users/{user_id}/activate': {
        post: operation(
          'activate_user',
          'post',
          '/users/{user_id}/activate',
          'Re-enable a deactivated account. Idempotent.',
          { '200': ok('UserRead'), '404': notFound },
          { parameters: [userIdParameter] },
        ),
      },
    },
    components: {
      schemas: {
        HTTPValidationError: {
          properties: { detail: { items: ref('ValidationError'), type: 'array', title: 'Detail' } },
          type: 'object',
          title: 'HTTPValidationError',
        },
        HealthStatus: {
          properties: {
            status: { type: 'string', enum: ['ok', 'degraded'], title: 'Status' },
            version: { type: 'string', title: 'Version' },
            database: { type: 'string', enum: ['ok', 'unreachable'], title: 'Database' },
          },
          type: 'object',
          required: ['status', 'version', 'database'],
          title: 'HealthStatus',
          description: 'Body of GET /health.',
        },
        UserCreate: {
          properties: {
            ...userFieldSchemas(false),
            password: { type: 'string', maxLength: 128, minLength: 1, title: 'Password' },
          },
          additionalProperties: false,
          type: 'object',
          required: ['email', 'full_name', 'password'],
          title: 'UserCreate',
          description: 'Body of POST /users.',
          examples: [
            {
              email: 'ada@example.com',
              full_name: 'Ada Lovelace',
              password: 'analytical-engine-1843',
              role: 'admin',
              timezone: 'Europe/London',
            },
          ],
        },
        UserPage: {
          properties: {
            items: { items: ref('UserRead'), type: 'array', title: 'Items' },
            total: {
              type: 'integer',
              title: 'Total',
              description: 'Number of users matching the filters, across all pages',
            },
            page: { type: 'integer', minimum: 1, title: 'Page' },
            page_size: { type: 'integer', minimum: 1, title: 'Page Size' },
            pages: {
              type: 'integer',
              minimum: 0,
              title: 'Pages',
              description: 'Total number of pages for this page_size',
            },
          },
          type: 'object',
          required: ['items', 'total', 'page', 'page_size', 'pages'],
          title: 'UserPage',
          description: 'One page of GET /users.',
        },
        UserRead: {
          properties: {
            id: { type: 'integer', title: 'Id' },
            email: { type: 'string', format: 'email', title: 'Email' },
            full_name: { type: 'string', title: 'Full Name' },
            role: { type: 'string', enum: roles, title: 'Role' },
            is_active: { type: 'boolean', title: 'Is Active' },
            bio: nullable({ type: 'string' }, 'Bio'),
            timezone: { type: 'string', title: 'Timezone' },
            created_at: { type: 'string', format: 'date-time', title: 'Created At' },
            updated_at: { type: 'string', format: 'date-time', title: 'Updated At' },
            last_login_at: nullable({ type: 'string', format: 'date-time' }, 'Last Login At'),
          },
          type: 'object',
          required: [
            'id',
            'email',
            'full_name',
            'role',
            'is_active',
            'bio',
            'timezone',
            'created_at',
            'updated_at',
          ],
          title: 'UserRead',
          description: 'A user as returned by the API. Never includes the password hash.',
        },
        UserUpdate: {
          properties: {
            ...userFieldSchemas(true),
            password: nullable({ type: 'string', maxLength: 128, minLength: 1 }, 'Password'),
          },
          additionalProperties: false,
          type: 'object',
          title: 'UserUpdate',
          description: 'Body of PATCH /users/{id}: only the fields present in the request change.',
        },
        UserStats: {
          properties: {
            total: { type: 'integer', minimum: 0, title: 'Total' },
            active: { type: 'integer', minimum: 0, title: 'Active' },
            inactive: { type: 'integer', minimum: 0, title: 'Inactive' },
            by_role: {
              propertyNames: { enum: roles },
              additionalProperties: { type: 'integer' },
              type: 'object',
              title: 'By Role',
              description: 'Number of users per role, zeros included',
            },
          },
          type: 'object',
          required: ['total', 'active', 'inactive', 'by_role'],
          title: 'UserStats',
          description: 'Body of GET /users/stats.',
        },
        ValidationError: {
          properties: {
            loc: {
              items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
              type: 'array',
              title: 'Location',
            },
            msg: { type: 'string', title: 'Message' },
            type: { type: 'string', title: 'Error Type' },
          },
          type: 'object',
          required: ['loc', 'msg', 'type'],
          title: 'ValidationError',
        },
      },
    },
    tags: [
      { name: 'users', description: 'Create, list, read, update, deactivate and delete users.' },
      { name: 'meta', description: 'Service health and metadata.' },
    ],
  };
  return JSON.stringify(document);
}
