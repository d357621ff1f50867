// The files of the demo session's FastAPI project, as the agent writes them. They are real,
// working-looking Python (they compile) because newcomers read them in the message list.
// String.raw keeps Python's backslashes (regexes, "\\n") exactly as they are in the files.

/** requirements.txt. */
export const demoRequirementsTxt = String.raw`# Runtime
fastapi==0.115.6
uvicorn[standard]==0.34.0
SQLAlchemy==2.0.36
pydantic==2.10.4
pydantic-settings==2.7.1
email-validator==2.2.0

# Tests and tooling
pytest==8.3.4
httpx==0.28.1
ruff==0.8.6
mypy==1.14.1
`;

/** pyproject.toml: project metadata plus the pytest, ruff and mypy settings. */
export const demoPyprojectToml = String.raw`[project]
name = "users-api"
version = "0.1.0"
description = "A small FastAPI service for managing user accounts"
requires-python = ">=3.12"

[tool.pytest.ini_options]
testpaths = ["tests"]
# Lets "import app" work from the tests without installing the project.
pythonpath = ["."]
addopts = "-ra --strict-markers"
log_level = "INFO"
filterwarnings = [
    "error::pytest.PytestUnraisableExceptionWarning",
]

[tool.ruff]
line-length = 100
target-version = "py312"

[tool.ruff.lint]
select = ["E", "F", "I", "UP", "B", "SIM"]

[tool.mypy]
python_version = "3.12"
strict = true
plugins = ["pydantic.mypy"]
`;

/** README.md: setup, API table, configuration, layout. */
export const demoReadmeMd = `# Users API

A small FastAPI service for managing user accounts: create, list (with pagination,
search, filters and sorting), read, update, deactivate and delete. SQLite through
SQLAlchemy 2.0, Pydantic v2 for validation, pytest for the test suite.

## Quick start

\`\`\`bash
python3.12 -m venv .venv
.venv/bin/pip install -r requirements.txt
.venv/bin/uvicorn app.main:app --reload
\`\`\`

Then open http://127.0.0.1:8000/docs for the interactive API documentation.

The database is created on first start (\`users.db\` in the project directory).

## Running the tests

\`\`\`bash
.venv/bin/python -m pytest          # everything
.venv/bin/python -m pytest -k lookup -v   # a subset, verbose
\`\`\`

The tests use their own SQLite file (\`test.db\`) and never touch \`users.db\`.
Most of the run time is password hashing (600,000 PBKDF2 iterations per user
created).

## API

| Method | Path                          | Description                                   |
|--------|-------------------------------|-----------------------------------------------|
| GET    | \`/health\`                     | Liveness and database connectivity            |
| POST   | \`/users\`                      | Create a user (201; 409 if the email exists)  |
| GET    | \`/users\`                      | List users: \`page\`, \`page_size\`, \`search\`, \`is_active\`, \`role\`, \`sort\` |
| GET    | \`/users/lookup?email=...\`     | Find a user by email (case-insensitive)       |
| GET    | \`/users/{id}\`                 | Fetch one user (404 if missing)               |
| PATCH  | \`/users/{id}\`                 | Change some fields; send only what changes    |
| POST   | \`/users/{id}/deactivate\`      | Disable an account (idempotent)               |
| POST   | \`/users/{id}/activate\`        | Re-enable an account (idempotent)             |
| DELETE | \`/users/{id}\`                 | Delete a user for good                        |

Example:

\`\`\`bash
curl -s -X POST localhost:8000/users \\
  -H 'Content-Type: application/json' \\
  -d '{"email": "ada@example.com", "full_name": "Ada Lovelace", "password": "analytical-engine-1843"}'
\`\`\`

Passwords must be 10 to 128 characters with at least one letter and one digit.
They are never returned by the API.

## Configuration

Settings come from environment variables prefixed with \`USERS_API_\` or from a
\`.env\` file in the project directory.

| Variable                              | Default                | Meaning                               |
|---------------------------------------|------------------------|---------------------------------------|
| \`USERS_API_DATABASE_URL\`              | \`sqlite:///./users.db\` | SQLAlchemy database URL               |
| \`USERS_API_ECHO_SQL\`                  | \`false\`                | Log every SQL statement               |
| \`USERS_API_DEFAULT_PAGE_SIZE\`         | \`20\`                   | Page size when none is given          |
| \`USERS_API_MAX_PAGE_SIZE\`             | \`100\`                  | Largest page a client may ask for     |
| \`USERS_API_PASSWORD_HASH_ITERATIONS\`  | \`600000\`               | PBKDF2 rounds for new hashes          |
| \`USERS_API_CORS_ORIGINS\`              | localhost:3000         | JSON list of allowed browser origins  |

## Project layout

\`\`\`
app/
  config.py     settings (pydantic-settings)
  database.py   engine, session factory, get_db dependency
  models.py     SQLAlchemy models
  schemas.py    Pydantic request/response models
  security.py   password hashing
  crud.py       database operations
  main.py       FastAPI app and routes
tests/
  conftest.py   fixtures: test database, TestClient, user factory
  test_api.py   HTTP-level tests
  test_crud.py  unit tests for app.crud
  test_security.py
\`\`\`

## Next steps

- Alembic migrations instead of \`create_all\` on startup
- Authentication (the \`crud.authenticate\` helper is ready for a login route)
- Postgres for anything beyond local development
`;

/** app/config.py: settings from the environment. */
export const demoConfigPy = String.raw`"""Application settings, read from the environment and an optional .env file."""

from functools import lru_cache

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Runtime configuration.

    Every field can be overridden with an environment variable prefixed with
    USERS_API_, for example USERS_API_DATABASE_URL=sqlite:///./dev.db.
    """

    model_config = SettingsConfigDict(
        env_prefix="USERS_API_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
    )

    app_name: str = "Users API"
    version: str = "0.1.0"
    debug: bool = False

    database_url: str = "sqlite:///./users.db"
    # SQLite connections are shared between the threadpool workers that FastAPI
    # runs sync endpoints on, so the same-thread check has to be disabled.
    sqlite_check_same_thread: bool = False
    echo_sql: bool = False

    default_page_size: int = Field(default=20, ge=1, le=100)
    max_page_size: int = Field(default=100, ge=1, le=1000)

    # OWASP's 2023 recommendation for PBKDF2-HMAC-SHA256.
    password_hash_iterations: int = Field(default=600_000, ge=100_000)

    cors_origins: list[str] = ["http://localhost:3000", "http://127.0.0.1:3000"]


@lru_cache
def get_settings() -> Settings:
    """Return the process-wide settings (read once, then cached)."""
    return Settings()
`;

/** app/database.py: engine, session factory, get_db. */
export const demoDatabasePy = String.raw`"""Database engine, session factory and the request-scoped session dependency."""

from collections.abc import Iterator
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from app.config import get_settings

settings = get_settings()


def _connect_args(url: str) -> dict[str, Any]:
    if url.startswith("sqlite"):
        return {"check_same_thread": settings.sqlite_check_same_thread}
    return {}


engine = create_engine(
    settings.database_url,
    connect_args=_connect_args(settings.database_url),
    echo=settings.echo_sql,
    pool_pre_ping=True,
)


@event.listens_for(Engine, "connect")
def _enable_sqlite_foreign_keys(dbapi_connection: Any, _connection_record: Any) -> None:
    """SQLite ships with foreign keys switched off; turn them on for every connection."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


SessionLocal = sessionmaker(bind=engine, autoflush=False, expire_on_commit=True)


class Base(DeclarativeBase):
    """Declarative base shared by every ORM model."""


def get_db() -> Iterator[Session]:
    """Yield one session per request and always close it, even when the handler raises."""
    db = SessionLocal()
    try:
        yield db
    finally:
        db.close()
`;

/** app/models.py: the User ORM model. */
export const demoModelsPy = String.raw`"""SQLAlchemy ORM models for the users API."""

from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, validates

from app.database import Base

# Roles are plain strings in the database so that adding one never needs a
# migration; the API layer (schemas.UserRole) restricts the accepted values.
ROLE_MEMBER = "member"
ROLE_ADMIN = "admin"
ROLE_VIEWER = "viewer"
ALL_ROLES = (ROLE_MEMBER, ROLE_ADMIN, ROLE_VIEWER)


def utcnow() -> datetime:
    """Timezone-aware now; datetime.utcnow() is deprecated since Python 3.12."""
    return datetime.now(UTC)


class TimestampMixin:
    """Adds created_at and updated_at columns that SQLAlchemy keeps current."""

    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, nullable=False
    )
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow, nullable=False
    )


class User(TimestampMixin, Base):
    """A user account.

    Emails are stored lower-cased and are unique. Passwords are never stored in
    clear text: hashed_password holds the PBKDF2 string produced by
    app.security.hash_password.
    """

    __tablename__ = "users"
    __table_args__ = (
        Index("ix_users_role_is_active", "role", "is_active"),
        Index("ix_users_created_at", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, index=True)
    email: Mapped[str] = mapped_column(String(320), unique=True, index=True, nullable=False)
    full_name: Mapped[str] = mapped_column(String(200), nullable=False)
    hashed_password: Mapped[str] = mapped_column(String(256), nullable=False)
    role: Mapped[str] = mapped_column(String(20), default=ROLE_MEMBER, nullable=False)
    is_active: Mapped[bool] = mapped_column(Boolean, default=True, nullable=False)
    bio: Mapped[str | None] = mapped_column(Text, default=None)
    timezone: Mapped[str] = mapped_column(String(64), default="UTC", nullable=False)
    last_login_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), default=None
    )

    @validates("email")
    def _lowercase_email(self, _key: str, value: str) -> str:
        return value.strip().lower()

    @validates("role")
    def _check_role(self, _key: str, value: str) -> str:
        if value not in ALL_ROLES:
            raise ValueError(f"unknown role {value!r}; expected one of {', '.join(ALL_ROLES)}")
        return value

    @property
    def display_name(self) -> str:
        """The full name when set, otherwise the part of the email before the @."""
        return self.full_name or self.email.split("@", 1)[0]

    def __repr__(self) -> str:
        return f"<User id={self.id} email={self.email!r} role={self.role} active={self.is_active}>"
`;

/** app/schemas.py: request and response models. */
export const demoSchemasPy = String.raw`"""Pydantic models for request validation and response serialisation.

Request models forbid unknown fields so that typos such as "fullname" fail
loudly with a 422 instead of being silently ignored.
"""

import re
from datetime import datetime
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    EmailStr,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

UserRole = Literal["member", "admin", "viewer"]
SortOrder = Literal["created_at", "-created_at", "email", "-email", "full_name", "-full_name"]

FullName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Bio = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)]
TimezoneName = Annotated[
    str, StringConstraints(pattern=r"^[A-Za-z_]+(/[A-Za-z0-9_+\-]+)*$", max_length=64)
]

# Password policy, following NIST SP 800-63B: length is what matters, so the
# minimum is generous, composition rules are kept to "a letter and a digit",
# and the maximum only exists to bound the hashing cost of a single request
# (PBKDF2 work grows with the password length on some implementations).
PASSWORD_MIN_LENGTH = 10
PASSWORD_MAX_LENGTH = 128
_HAS_LETTER = re.compile(r"[A-Za-z]")
_HAS_DIGIT = re.compile(r"\d")


def check_password_strength(password: str) -> str:
    """Reject passwords that are short or lack a letter or a digit.

    Deliberately simple: length matters far more than character classes, and
    the real protection against brute force is the slow hash in app.security.
    """
    if len(password) < PASSWORD_MIN_LENGTH:
        raise ValueError(f"password must be at least {PASSWORD_MIN_LENGTH} characters")
    if not _HAS_LETTER.search(password):
        raise ValueError("password must contain at least one letter")
    if not _HAS_DIGIT.search(password):
        raise ValueError("password must contain at least one digit")
    return password


def normalise_email(value: str) -> str:
    """Emails are compared case-insensitively, so store and compare them lower-cased."""
    return value.strip().lower()


class UserBase(BaseModel):
    """Fields shared by the create payload and the API representation."""

    email: EmailStr
    full_name: FullName
    role: UserRole = "member"
    bio: Bio | None = None
    timezone: TimezoneName = "UTC"


class UserCreate(UserBase):
    """Body of POST /users."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "email": "ada@example.com",
                    "full_name": "Ada Lovelace",
                    "password": "analytical-engine-1843",
                    "role": "admin",
                    "timezone": "Europe/London",
                }
            ]
        },
    )

    password: str = Field(min_length=1, max_length=PASSWORD_MAX_LENGTH, repr=False)

    @field_validator("email")
    @classmethod
    def _normalise_email(cls, value: str) -> str:
        return normalise_email(value)

    @field_validator("password")
    @classmethod
    def _password_strength(cls, value: str) -> str:
        return check_password_strength(value)

    @model_validator(mode="after")
    def _password_differs_from_email(self) -> "UserCreate":
        local_part = self.email.split("@", 1)[0]
        if self.password.lower() in {local_part, self.email}:
            raise ValueError("password must not be the same as the email address")
        return self


class UserUpdate(BaseModel):
    """Body of PATCH /users/{id}: only the fields present in the request change."""

    model_config = ConfigDict(extra="forbid")

    email: EmailStr | None = None
    full_name: FullName | None = None
    role: UserRole | None = None
    bio: Bio | None = None
    timezone: TimezoneName | None = None
    password: str | None = Field(
        default=None, min_length=1, max_length=PASSWORD_MAX_LENGTH, repr=False
    )

    @field_validator("email")
    @classmethod
    def _normalise_email(cls, value: str | None) -> str | None:
        return None if value is None else normalise_email(value)

    @field_validator("password")
    @classmethod
    def _password_strength(cls, value: str | None) -> str | None:
        return None if value is None else check_password_strength(value)

    @model_validator(mode="after")
    def _no_explicit_nulls(self) -> "UserUpdate":
        # "bio": null is a legitimate way to clear the bio; every other field is
        # required on the model, so an explicit null there is a client error.
        for name in ("email", "full_name", "role", "timezone", "password"):
            if name in self.model_fields_set and getattr(self, name) is None:
                raise ValueError(f"{name} cannot be null")
        return self


# Response models are separate from request models on purpose: adding a field
# to the database (or to a request) must never leak it into responses by
# accident. UserRead lists exactly what clients may see; hashed_password is
# deliberately absent, and from_attributes lets it be built from ORM objects.
class UserRead(BaseModel):
    """A user as returned by the API. Never includes the password hash."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    email: EmailStr
    full_name: str
    role: UserRole
    is_active: bool
    bio: str | None
    timezone: str
    created_at: datetime
    updated_at: datetime
    last_login_at: datetime | None = None


# Pagination metadata travels in the body rather than in headers (Link,
# X-Total-Count) because the generated OpenAPI clients handle bodies better.
class UserPage(BaseModel):
    """One page of GET /users."""

    items: list[UserRead]
    total: int = Field(description="Number of users matching the filters, across all pages")
    page: int = Field(ge=1)
    page_size: int = Field(ge=1)
    pages: int = Field(ge=0, description="Total number of pages for this page_size")


class UserStats(BaseModel):
    """Body of GET /users/stats."""

    total: int = Field(ge=0)
    active: int = Field(ge=0)
    inactive: int = Field(ge=0)
    by_role: dict[UserRole, int] = Field(description="Number of users per role, zeros included")


class HealthStatus(BaseModel):
    """Body of GET /health."""

    status: Literal["ok", "degraded"]
    version: str
    database: Literal["ok", "unreachable"]
`;

/** app/security.py: PBKDF2 password hashing. */
export const demoSecurityPy = String.raw`"""Password hashing with PBKDF2-HMAC-SHA256 from the standard library.

Hashes are stored as "pbkdf2_sha256$<iterations>$<salt>$<hash>" (salt and hash
base64-encoded), the same layout Django uses, so the iteration count can be
raised later without invalidating existing hashes.
"""

import base64
import hashlib
import hmac
import secrets

from app.config import get_settings

ALGORITHM = "pbkdf2_sha256"
SALT_BYTES = 16


def _b64encode(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii").rstrip("=")


def _b64decode(text: str) -> bytes:
    padding = "=" * (-len(text) % 4)
    return base64.b64decode(text + padding)


def hash_password(password: str, *, iterations: int | None = None) -> str:
    """Return a salted PBKDF2 hash of password in the storage format above."""
    rounds = iterations or get_settings().password_hash_iterations
    salt = secrets.token_bytes(SALT_BYTES)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, rounds)
    return "$".join((ALGORITHM, str(rounds), _b64encode(salt), _b64encode(digest)))


def verify_password(password: str, stored: str) -> bool:
    """Check password against a stored hash in constant time.

    Returns False (rather than raising) for malformed or foreign hashes so a
    corrupt row can never crash a login request.
    """
    try:
        algorithm, rounds_text, salt_text, digest_text = stored.split("$")
        rounds = int(rounds_text)
    except ValueError:
        return False
    if algorithm != ALGORITHM:
        return False
    expected = _b64decode(digest_text)
    candidate = hashlib.pbkdf2_hmac(
        "sha256", password.encode("utf-8"), _b64decode(salt_text), rounds
    )
    return hmac.compare_digest(candidate, expected)


def needs_rehash(stored: str) -> bool:
    """True when the hash was made with fewer iterations than currently configured."""
    try:
        _, rounds_text, _, _ = stored.split("$")
        return int(rounds_text) < get_settings().password_hash_iterations
    except ValueError:
        return True
`;

/** app/crud.py as first written: delete_user refreshes a deleted row (the bug the demo session finds). */
export const demoCrudPy = String.raw`"""Database operations for users.

Every function takes the session explicitly and commits its own work, so the
route handlers in app.main stay thin and the functions are easy to test.
"""

import logging
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sqlalchemy import Select, func, or_, select
from sqlalchemy.orm import Session

from app import models, schemas
from app.security import hash_password, needs_rehash, verify_password

logger = logging.getLogger("users_api.crud")

# Maps the public "sort" query value to an ORDER BY clause. Every order ends
# with the primary key so pages are stable when two rows tie.
_SORT_COLUMNS = {
    "created_at": (models.User.created_at.asc(), models.User.id.asc()),
    "-created_at": (models.User.created_at.desc(), models.User.id.desc()),
    "email": (models.User.email.asc(), models.User.id.asc()),
    "-email": (models.User.email.desc(), models.User.id.desc()),
    "full_name": (models.User.full_name.asc(), models.User.id.asc()),
    "-full_name": (models.User.full_name.desc(), models.User.id.desc()),
}


# Compared against when the email is unknown, so a miss costs as much as a hit.
_DUMMY_HASH = hash_password("not-a-real-password-0")


@dataclass(frozen=True, slots=True)
class UserFilters:
    """Optional filters for listing users; None means "don't filter on this"."""

    search: str | None = None
    is_active: bool | None = None
    role: str | None = None


@dataclass(frozen=True, slots=True)
class Page:
    """A slice of a result set plus the numbers needed to render pagination."""

    items: Sequence[models.User]
    total: int
    page: int
    page_size: int

    @property
    def pages(self) -> int:
        return math.ceil(self.total / self.page_size) if self.total else 0


@dataclass(frozen=True, slots=True)
class UserStats:
    """Head counts for the admin dashboard."""

    total: int
    active: int
    by_role: dict[str, int]

    @property
    def inactive(self) -> int:
        return self.total - self.active


def get_user(db: Session, user_id: int) -> models.User | None:
    """Return the user with this id, or None."""
    return db.get(models.User, user_id)


def get_user_by_email(db: Session, email: str) -> models.User | None:
    """Look a user up by email, ignoring case."""
    statement = select(models.User).where(models.User.email == schemas.normalise_email(email))
    return db.scalars(statement).first()


# Uniqueness is also enforced by the unique index on users.email; this check
# exists to give clients a clear 409 instead of an IntegrityError turning into
# a 500. Two concurrent requests can still race past it, in which case the
# index wins and the second insert fails.
def email_taken(db: Session, email: str, *, exclude_user_id: int | None = None) -> bool:
    """True if another user already has this email (case-insensitive)."""
    statement = select(models.User.id).where(
        models.User.email == schemas.normalise_email(email)
    )
    if exclude_user_id is not None:
        statement = statement.where(models.User.id != exclude_user_id)
    return db.scalars(statement.limit(1)).first() is not None


# Filters are applied in one place so that list_users, count_users and
# iter_users can never disagree about which rows match: the total shown next
# to a page must count exactly the rows the pages are cut from.
def _apply_filters(statement: Select, filters: UserFilters) -> Select:  # type: ignore[type-arg]
    if filters.search:
        # SQLite's LIKE is case-insensitive for ASCII; on Postgres use ILIKE.
        pattern = f"%{filters.search.strip()}%"
        statement = statement.where(
            or_(models.User.email.like(pattern), models.User.full_name.like(pattern))
        )
    if filters.is_active is not None:
        statement = statement.where(models.User.is_active.is_(filters.is_active))
    if filters.role is not None:
        statement = statement.where(models.User.role == filters.role)
    return statement


def count_users(db: Session, filters: UserFilters | None = None) -> int:
    """Number of users matching filters."""
    statement = _apply_filters(select(func.count(models.User.id)), filters or UserFilters())
    return db.scalar(statement) or 0


# Offset pagination is fine at this scale. If the table grows to millions of
# rows, switch to keyset pagination on (created_at, id): OFFSET has to walk
# every skipped row, so deep pages get slower and slower.
def list_users(
    db: Session,
    *,
    page: int = 1,
    page_size: int = 20,
    filters: UserFilters | None = None,
    sort: str = "-created_at",
) -> Page:
    """Return one page of users matching filters, ordered by sort."""
    filters = filters or UserFilters()
    order_by = _SORT_COLUMNS.get(sort, _SORT_COLUMNS["-created_at"])
    statement = (
        _apply_filters(select(models.User), filters)
        .order_by(*order_by)
        .offset((page - 1) * page_size)
        .limit(page_size)
    )
    items = db.scalars(statement).all()
    return Page(items=items, total=count_users(db, filters), page=page, page_size=page_size)


def user_stats(db: Session) -> UserStats:
    """Count users overall, active ones, and per role, in two cheap aggregate queries."""
    total, active = db.execute(
        select(func.count(models.User.id), func.count(models.User.id).filter(models.User.is_active))
    ).one()
    rows = db.execute(
        select(models.User.role, func.count(models.User.id)).group_by(models.User.role)
    ).all()
    # Every known role appears, with 0 when nobody has it, so clients need no special case.
    by_role = {role: 0 for role in models.ALL_ROLES}
    by_role.update({role: count for role, count in rows})
    return UserStats(total=total, active=active, by_role=by_role)


def iter_users(
    db: Session, filters: UserFilters | None = None, *, batch_size: int = 500
) -> Iterator[models.User]:
    """Yield every user matching filters, oldest first, fetching batch_size rows at a time.

    Used by the CSV export so that a large table is streamed instead of being
    loaded into memory in one go.
    """
    statement = _apply_filters(select(models.User), filters or UserFilters()).order_by(
        models.User.id.asc()
    )
    yield from db.scalars(statement.execution_options(yield_per=batch_size))


def create_user(db: Session, payload: schemas.UserCreate) -> models.User:
    """Insert a new user. The caller checks email uniqueness first (see email_taken)."""
    user = models.User(
        email=payload.email,
        full_name=payload.full_name,
        role=payload.role,
        bio=payload.bio,
        timezone=payload.timezone,
        hashed_password=hash_password(payload.password),
    )
    db.add(user)
    db.commit()
    db.refresh(user)
    return user


# Updates go through exclude_unset so that PATCH semantics hold: a field the
# client did not send is left alone, while an explicit null (allowed only for
# bio, see schemas.UserUpdate) clears it.
def update_user(db: Session, user: models.User, payload: schemas.UserUpdate) -> models.User:
    """Apply a partial update: fields missing from the request body are left alone."""
    changes = payload.model_dump(exclude_unset=True)
    password = changes.pop("password", None)
    for field, value in changes.items():
        setattr(user, field, value)
    if password is not None:
        user.hashed_password = hash_password(password)
    db.commit()
    db.refresh(user)
    logger.info("Updated user %s: %s", user.id, ", ".join(sorted(changes)) or "password")
    return user


def authenticate(db: Session, email: str, password: str) -> models.User | None:
    """Return the active user with these credentials, or None.

    Runs a dummy hash when the email is unknown so that response times don't
    reveal which addresses are registered. Upgrades the stored hash when the
    configured iteration count has been raised since it was created.
    """
    user = get_user_by_email(db, email)
    if user is None:
        verify_password(password, _DUMMY_HASH)
        return None
    if not user.is_active or not verify_password(password, user.hashed_password):
        return None
    if needs_rehash(user.hashed_password):
        user.hashed_password = hash_password(password)
    user.last_login_at = models.utcnow()
    db.commit()
    return user


def set_active(db: Session, user: models.User, *, active: bool) -> models.User:
    """Activate or deactivate a user. Deactivated users keep their data."""
    if user.is_active != active:
        user.is_active = active
        db.commit()
        db.refresh(user)
        logger.info("%s user %s", "Activated" if active else "Deactivated", user.id)
    return user


def delete_user(db: Session, user: models.User) -> models.User:
    """Delete user and return it so the endpoint can echo the deleted record."""
    db.delete(user)
    db.commit()
    db.refresh(user)
    logger.info("Deleted user %s", user.id)
    return user
`;

/** app/main.py as first written: the delete route echoes the deleted user. */
export const demoMainPy = String.raw`"""Users API: a small FastAPI service for managing user accounts.

Run it locally with:

    uvicorn app.main:app --reload

Interactive docs are served at /docs (Swagger UI) and /redoc.
"""

import csv
import io
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import Depends, FastAPI, HTTPException, Query, status
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import RedirectResponse, StreamingResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from app import crud, models, schemas
from app.config import get_settings
from app.database import Base, engine, get_db

settings = get_settings()
logger = logging.getLogger("users_api")

DbSession = Annotated[Session, Depends(get_db)]

# Documented on every route that looks a user up by id, so the OpenAPI schema
# shows clients the 404 body they have to handle.
NOT_FOUND_RESPONSE = {
    status.HTTP_404_NOT_FOUND: {
        "description": "No user with this id",
        "content": {"application/json": {"example": {"detail": "User 42 not found"}}},
    }
}
CONFLICT_RESPONSE = {
    status.HTTP_409_CONFLICT: {
        "description": "The email address is already registered",
        "content": {
            "application/json": {"example": {"detail": "Email ada@example.com is already registered"}}
        },
    }
}


@asynccontextmanager
async def lifespan(_: FastAPI) -> AsyncIterator[None]:
    """Create the tables on startup.

    Good enough for SQLite during development; switch to Alembic migrations
    before pointing the service at a shared database.
    """
    Base.metadata.create_all(bind=engine)
    logger.info("Database ready at %s", settings.database_url)
    yield
    engine.dispose()


OPENAPI_TAGS = [
    {"name": "users", "description": "Create, list, read, update, deactivate and delete users."},
    {"name": "meta", "description": "Service health and metadata."},
]

app = FastAPI(
    title=settings.app_name,
    version=settings.version,
    description=(
        "CRUD API for user accounts with pagination, filtering and deactivation.\n\n"
        "Emails are unique and case-insensitive. Passwords are write-only: they are "
        "hashed with PBKDF2 and never returned."
    ),
    openapi_tags=OPENAPI_TAGS,
    lifespan=lifespan,
)

app.add_middleware(
    CORSMiddleware,
    allow_origins=settings.cors_origins,
    allow_credentials=True,
    allow_methods=["GET", "POST", "PATCH", "DELETE"],
    allow_headers=["*"],
)


# Helpers shared by the routes below. They raise HTTPException directly so that
# every route reports a missing user or a taken email with the same status
# code and the same wording; the tests assert on both.


def _get_user_or_404(db: Session, user_id: int) -> models.User:
    user = crud.get_user(db, user_id)
    if user is None:
        raise HTTPException(status_code=status.HTTP_404_NOT_FOUND, detail=f"User {user_id} not found")
    return user


def _ensure_email_free(db: Session, email: str, *, exclude_user_id: int | None = None) -> None:
    if crud.email_taken(db, email, exclude_user_id=exclude_user_id):
        raise HTTPException(
            status_code=status.HTTP_409_CONFLICT,
            detail=f"Email {email} is already registered",
        )


@app.get("/", include_in_schema=False)
def root() -> RedirectResponse:
    """Send browsers that open the bare host to the interactive docs."""
    return RedirectResponse(url="/docs")


@app.get("/health", response_model=schemas.HealthStatus, tags=["meta"])
def health(db: DbSession) -> schemas.HealthStatus:
    """Liveness and database connectivity in one cheap call (for load balancers)."""
    try:
        db.execute(text("SELECT 1"))
        database = "ok"
    except SQLAlchemyError:
        logger.exception("Health check could not reach the database")
        database = "unreachable"
    return schemas.HealthStatus(
        status="ok" if database == "ok" else "degraded",
        version=settings.version,
        database=database,
    )


@app.post(
    "/users",
    response_model=schemas.UserRead,
    status_code=status.HTTP_201_CREATED,
    responses=CONFLICT_RESPONSE,
    tags=["users"],
)
def create_user(payload: schemas.UserCreate, db: DbSession) -> models.User:
    """Register a new user. Emails are unique, compared case-insensitively."""
    _ensure_email_free(db, payload.email)
    return crud.create_user(db, payload)


@app.get("/users", response_model=schemas.UserPage, tags=["users"])
def list_users(
    # Query parameters are declared with Annotated so that their limits and
    # descriptions end up in the OpenAPI schema (and in /docs) as well as in
    # the validation; max_page_size comes from the settings.
    db: DbSession,
    page: Annotated[int, Query(ge=1, description="1-based page number")] = 1,
    page_size: Annotated[
        int, Query(ge=1, le=settings.max_page_size, description="Users per page")
    ] = settings.default_page_size,
    search: Annotated[
        str | None,
        Query(min_length=1, max_length=100, description="Substring of the name or email"),
    ] = None,
    is_active: Annotated[bool | None, Query(description="Only active or inactive users")] = None,
    role: Annotated[schemas.UserRole | None, Query(description="Only users with this role")] = None,
    sort: Annotated[schemas.SortOrder, Query(description="Order; prefix with - for descending")] = (
        "-created_at"
    ),
) -> schemas.UserPage:
    """List users, newest first by default, with optional filters."""
    filters = crud.UserFilters(search=search, is_active=is_active, role=role)
    result = crud.list_users(db, page=page, page_size=page_size, filters=filters, sort=sort)
    return schemas.UserPage(
        items=[schemas.UserRead.model_validate(user) for user in result.items],
        total=result.total,
        page=result.page,
        page_size=result.page_size,
        pages=result.pages,
    )


@app.get("/users/stats", response_model=schemas.UserStats, tags=["users"])
def user_stats(db: DbSession) -> schemas.UserStats:
    """Head counts: all users, active and inactive ones, and users per role.

    Declared before /users/{user_id}, like /users/lookup, so the path matches.
    """
    stats = crud.user_stats(db)
    return schemas.UserStats(
        total=stats.total,
        active=stats.active,
        inactive=stats.inactive,
        by_role=stats.by_role,
    )


CSV_COLUMNS = ("id", "email", "full_name", "role", "is_active", "timezone", "created_at")


@app.get(
    "/users/export.csv",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/csv": {}}, "description": "All matching users as CSV"}},
    tags=["users"],
)
def export_users(
    db: DbSession,
    search: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
    is_active: Annotated[bool | None, Query()] = None,
    role: Annotated[schemas.UserRole | None, Query()] = None,
) -> StreamingResponse:
    """Download the users matching the filters as CSV (same filters as GET /users).

    Rows are written as they are read, so exporting a large table doesn't hold
    it all in memory.
    """
    filters = crud.UserFilters(search=search, is_active=is_active, role=role)

    def rows() -> Iterator[str]:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(CSV_COLUMNS)
        for user in crud.iter_users(db, filters):
            writer.writerow(
                [
                    user.id,
                    user.email,
                    user.full_name,
                    user.role,
                    "true" if user.is_active else "false",
                    user.timezone,
                    user.created_at.isoformat(),
                ]
            )
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate(0)
        yield buffer.getvalue()

    return StreamingResponse(
        rows(),
        media_type="text/csv",
        headers={"Content-Disposition": 'attachment; filename="users.csv"'},
    )


@app.get(
    "/users/lookup",
    response_model=schemas.UserRead,
    responses={
        status.HTTP_404_NOT_FOUND: {
            "description": "No user with this email",
            "content": {"application/json": {"example": {"detail": "No user with email ada@example.com"}}},
        }
    },
    tags=["users"],
)
def lookup_user(
    db: DbSession,
    email: Annotated[str, Query(min_length=3, max_length=320, description="Exact email, any case")],
) -> models.User:
    """Find a user by email address (case-insensitive exact match).

    Declared before /users/{user_id} so that "lookup" is not parsed as an id.
    """
    user = crud.get_user_by_email(db, email)
    if user is None:
        raise HTTPException(
            status_code=status.HTTP_404_NOT_FOUND, detail=f"No user with email {email.lower()}"
        )
    return user


@app.get(
    "/users/{user_id}",
    response_model=schemas.UserRead,
    responses=NOT_FOUND_RESPONSE,
    tags=["users"],
)
def get_user(user_id: int, db: DbSession) -> models.User:
    """Fetch one user by id."""
    return _get_user_or_404(db, user_id)


@app.patch(
    "/users/{user_id}",
    response_model=schemas.UserRead,
    responses={**NOT_FOUND_RESPONSE, **CONFLICT_RESPONSE},
    tags=["users"],
)
def update_user(user_id: int, payload: schemas.UserUpdate, db: DbSession) -> models.User:
    """Change some fields of a user. Send only the fields you want to change."""
    user = _get_user_or_404(db, user_id)
    if payload.email is not None and payload.email != user.email:
        _ensure_email_free(db, payload.email, exclude_user_id=user.id)
    return crud.update_user(db, user, payload)


@app.post(
    "/users/{user_id}/deactivate",
    response_model=schemas.UserRead,
    responses=NOT_FOUND_RESPONSE,
    tags=["users"],
)
def deactivate_user(user_id: int, db: DbSession) -> models.User:
    """Disable an account without deleting its data. Idempotent."""
    return crud.set_active(db, _get_user_or_404(db, user_id), active=False)


@app.post(
    "/users/{user_id}/activate",
    response_model=schemas.UserRead,
    responses=NOT_FOUND_RESPONSE,
    tags=["users"],
)
def activate_user(user_id: int, db: DbSession) -> models.User:
    """Re-enable a deactivated account. Idempotent."""
    return crud.set_active(db, _get_user_or_404(db, user_id), active=True)


@app.delete(
    "/users/{user_id}",
    response_model=schemas.UserRead,
    responses=NOT_FOUND_RESPONSE,
    tags=["users"],
)
def delete_user(user_id: int, db: DbSession) -> models.User:
    """Delete a user for good and return the deleted record."""
    user = _get_user_or_404(db, user_id)
    return crud.delete_user(db, user)
`;
