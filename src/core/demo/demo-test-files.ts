// The demo project's test files. The pytest logs in demo-logs.ts are derived from the test
// names and line numbers in here, so the logs always match the code the agent wrote.

/** tests/test_crud.py: unit tests for the CRUD layer. */
export const demoTestCrudPy = String.raw`"""Unit tests for app.crud, run directly against the test database session."""

import uuid

from sqlalchemy.orm import Session

from app import crud, models, schemas
from app.security import verify_password


def _create(db: Session, **overrides: object) -> models.User:
    fields: dict[str, object] = {
        "email": f"crud-{uuid.uuid4().hex[:12]}@example.com",
        "full_name": "Crud User",
        "password": "correct-horse-42",
    }
    fields.update(overrides)
    return crud.create_user(db, schemas.UserCreate.model_validate(fields))


def test_create_user_hashes_the_password(db_session: Session) -> None:
    user = _create(db_session)
    assert user.hashed_password != "correct-horse-42"
    assert verify_password("correct-horse-42", user.hashed_password)


def test_get_user_by_email_ignores_case(db_session: Session) -> None:
    user = _create(db_session)
    assert crud.get_user_by_email(db_session, user.email.upper()) == user


def test_email_taken_excludes_the_given_user(db_session: Session) -> None:
    user = _create(db_session)
    assert crud.email_taken(db_session, user.email) is True
    assert crud.email_taken(db_session, user.email, exclude_user_id=user.id) is False


def test_update_user_only_touches_given_fields(db_session: Session) -> None:
    user = _create(db_session, bio="keep me")
    crud.update_user(db_session, user, schemas.UserUpdate(full_name="New Name"))
    assert user.full_name == "New Name"
    assert user.bio == "keep me"


def test_update_user_rehashes_a_new_password(db_session: Session) -> None:
    user = _create(db_session)
    old_hash = user.hashed_password
    crud.update_user(db_session, user, schemas.UserUpdate(password="another-secret-9"))
    assert user.hashed_password != old_hash
    assert verify_password("another-secret-9", user.hashed_password)


def test_authenticate_with_the_right_password(db_session: Session) -> None:
    user = _create(db_session)
    assert crud.authenticate(db_session, user.email, "correct-horse-42") == user
    assert user.last_login_at is not None


def test_authenticate_with_a_wrong_password(db_session: Session) -> None:
    user = _create(db_session)
    assert crud.authenticate(db_session, user.email, "wrong-horse-42") is None


def test_authenticate_unknown_email(db_session: Session) -> None:
    assert crud.authenticate(db_session, "ghost@example.com", "whatever-123") is None


def test_authenticate_rejects_deactivated_users(db_session: Session) -> None:
    user = _create(db_session)
    crud.set_active(db_session, user, active=False)
    assert crud.authenticate(db_session, user.email, "correct-horse-42") is None


def test_list_users_page_numbers(db_session: Session) -> None:
    tag = uuid.uuid4().hex[:8]
    for index in range(5):
        _create(db_session, full_name=f"Paged {tag} {index}")
    page = crud.list_users(
        db_session, page=2, page_size=2, filters=crud.UserFilters(search=tag), sort="full_name"
    )
    assert page.total == 5
    assert page.pages == 3
    assert [user.full_name for user in page.items] == [f"Paged {tag} 2", f"Paged {tag} 3"]


def test_count_users_with_filters(db_session: Session) -> None:
    tag = uuid.uuid4().hex[:8]
    _create(db_session, full_name=f"Counted {tag}", role="viewer")
    _create(db_session, full_name=f"Counted {tag}")
    assert crud.count_users(db_session, crud.UserFilters(search=tag)) == 2
    assert crud.count_users(db_session, crud.UserFilters(search=tag, role="viewer")) == 1


def test_unknown_sort_falls_back_to_newest_first(db_session: Session) -> None:
    tag = uuid.uuid4().hex[:8]
    first = _create(db_session, full_name=f"Fallback {tag} 1")
    second = _create(db_session, full_name=f"Fallback {tag} 2")
    page = crud.list_users(db_session, filters=crud.UserFilters(search=tag), sort="bogus")
    assert [user.id for user in page.items] == [second.id, first.id]
`;

/** tests/conftest.py as first written: one file database shared by every test and every run. */
export const demoConftestPy = String.raw`"""Shared pytest fixtures: a test database, a TestClient wired to it, and a user factory."""

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.orm import Session, sessionmaker

from app import models  # noqa: F401  (registers the tables on Base.metadata)
from app.database import Base, get_db
from app.main import app

# A separate file so the tests never touch the development database (users.db).
TEST_DATABASE_URL = "sqlite:///./test.db"

engine = create_engine(TEST_DATABASE_URL, connect_args={"check_same_thread": False})
TestingSessionLocal = sessionmaker(bind=engine, autoflush=False, expire_on_commit=True)

UserFactory = Callable[..., dict[str, Any]]


@pytest.fixture(scope="session", autouse=True)
def create_schema() -> Iterator[None]:
    """Create the tables once per test run."""
    Base.metadata.create_all(bind=engine)
    yield
    # Tables are left in place on purpose so a failed run can be inspected
    # with "sqlite3 test.db".


@pytest.fixture()
def db_session() -> Iterator[Session]:
    """A session on the test database, closed after the test.

    Used directly by the CRUD unit tests, and injected into the app by the
    client fixture below so that API calls and assertions share one session.
    """
    session = TestingSessionLocal()
    try:
        yield session
    finally:
        session.close()


@pytest.fixture()
def client(db_session: Session) -> Iterator[TestClient]:
    """A TestClient whose requests use the test database session."""

    def override_get_db() -> Iterator[Session]:
        yield db_session

    app.dependency_overrides[get_db] = override_get_db
    with TestClient(app) as test_client:
        yield test_client
    app.dependency_overrides.clear()


@pytest.fixture()
def make_user(client: TestClient) -> UserFactory:
    """Create a user through the API and return its JSON.

    Emails are random so tests don't collide with each other; pass email=...
    to choose one.
    """

    def _make_user(**overrides: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "email": f"user-{uuid.uuid4().hex[:12]}@example.com",
            "full_name": "Test User",
            "password": "correct-horse-42",
        }
        payload.update(overrides)
        response = client.post("/users", json=payload)
        assert response.status_code == 201, response.text
        return response.json()

    return _make_user
`;

/** tests/conftest.py after the fix: a fresh in-memory database per test. */
export const demoConftestFixedPy = String.raw`"""Shared pytest fixtures: an isolated database per test, a TestClient wired to it,
and a user factory.

Every test gets a brand-new in-memory SQLite database, so tests cannot see each
other's rows and nothing survives from one run to the next.
"""

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from app import models  # noqa: F401  (registers the tables on Base.metadata)
from app.database import Base, get_db
from app.main import app

UserFactory = Callable[..., dict[str, Any]]


@pytest.fixture()
def engine() -> Iterator[Engine]:
    """A fresh in-memory database for each test.

    StaticPool hands the same connection to every session. Without it each new
    connection to "sqlite://" would open a different, empty database and the
    request handlers would not see the tables created here.
    """
    test_engine = create_engine(
        "sqlite://",
        connect_args={"check_same_thread": False},
        poolclass=StaticPool,
    )
    Base.metadata.create_all(bind=test_engine)
    yield test_engine
    Base.metadata.drop_all(bind=test_engine)
    test_engine.dispose()


@pytest.fixture()
def db_session(engine: Engine) -> Iterator[Session]:
    session = sessionmaker(bind=engine, autoflush=False, expire_on_commit=True)()
    try:
        yield session
    finally:
        session.close()


@pytest.fixture()
def client(db_session: Session) -> Iterator[TestClient]:
    """A TestClient whose requests use this test's database session."""

    def override_get_db() -> Iterator[Session]:
        yield db_session

    app.dependency_overrides[get_db] = override_get_db
    with TestClient(app) as test_client:
        yield test_client
    app.dependency_overrides.clear()


@pytest.fixture()
def make_user(client: TestClient) -> UserFactory:
    """Create a user through the API and return its JSON.

    Emails are random so tests don't depend on each other; pass email=... to
    choose one.
    """

    def _make_user(**overrides: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "email": f"user-{uuid.uuid4().hex[:12]}@example.com",
            "full_name": "Test User",
            "password": "correct-horse-42",
        }
        payload.update(overrides)
        response = client.post("/users", json=payload)
        assert response.status_code == 201, response.text
        return response.json()

    return _make_user
`;

/** tests/test_api.py: the API test suite. */
export const demoTestApiPy = String.raw`"""End-to-end tests for the users API, run through FastAPI's TestClient."""

import csv
import io
import uuid
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import UserFactory

VALID_PASSWORD = "correct-horse-42"


def _parse_timestamp(value: str) -> datetime:
    # SQLite drops the timezone, so the API returns naive ISO 8601 strings;
    # fromisoformat handles both forms on Python 3.11+.
    return datetime.fromisoformat(value)


def _tag() -> str:
    """A short random token, so searches only see the rows this test created."""
    return uuid.uuid4().hex[:8]


def _error_fields(response: Any) -> set[str]:
    """The field names a 422 response complains about."""
    return {".".join(str(part) for part in error["loc"][1:]) for error in response.json()["detail"]}


# --------------------------------------------------------------------------- meta


def test_health_check(client: TestClient) -> None:
    response = client.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["version"] == "0.1.0"


def test_openapi_lists_user_routes(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "/users" in schema["paths"]
    assert set(schema["paths"]["/users/{user_id}"]) == {"get", "patch", "delete"}
    assert "404" in schema["paths"]["/users/{user_id}"]["get"]["responses"]


def test_health_reports_unreachable_database(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.orm import Session

    def broken_execute(*_args: Any, **_kwargs: Any) -> None:
        raise OperationalError("SELECT 1", {}, Exception("database is locked"))

    monkeypatch.setattr(Session, "execute", broken_execute)
    response = client.get("/health")
    assert response.status_code == 200
    assert response.json()["status"] == "degraded"
    assert response.json()["database"] == "unreachable"


def test_openapi_documents_the_error_bodies(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    post_responses = schema["paths"]["/users"]["post"]["responses"]
    assert {"201", "409", "422"} <= set(post_responses)
    assert "UserCreate" in schema["components"]["schemas"]
    assert "hashed_password" not in schema["components"]["schemas"]["UserRead"]["properties"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        pytest.param("put", "/users/1", id="put-user"),
        pytest.param("delete", "/users", id="delete-collection"),
        pytest.param("patch", "/users", id="patch-collection"),
        pytest.param("post", "/users/1", id="post-user"),
        pytest.param("post", "/health", id="post-health"),
    ],
)
def test_unsupported_methods_return_405(client: TestClient, method: str, path: str) -> None:
    response = client.request(method.upper(), path)
    assert response.status_code == 405


def test_unknown_path_returns_404(client: TestClient) -> None:
    response = client.get("/does-not-exist")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not Found"}


def test_responses_are_json(client: TestClient) -> None:
    response = client.get("/health")
    assert response.headers["content-type"] == "application/json"


def test_root_redirects_to_docs(client: TestClient) -> None:
    response = client.get("/", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == "/docs"


def test_docs_page_is_served(client: TestClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200
    assert "swagger-ui" in response.text


def test_cors_preflight_allows_the_frontend_origin(client: TestClient) -> None:
    response = client.options(
        "/users",
        headers={
            "Origin": "http://localhost:3000",
            "Access-Control-Request-Method": "POST",
        },
    )
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "http://localhost:3000"


def test_cors_rejects_unknown_origin(client: TestClient) -> None:
    response = client.options(
        "/users",
        headers={"Origin": "https://evil.example.net", "Access-Control-Request-Method": "POST"},
    )
    assert "access-control-allow-origin" not in response.headers


# --------------------------------------------------------------------------- create


def test_create_user(client: TestClient) -> None:
    response = client.post(
        "/users",
        json={"email": "alice@example.com", "full_name": "Alice Liddell", "password": "wonderland-42"},
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["id"] > 0
    assert body["email"] == "alice@example.com"
    assert body["full_name"] == "Alice Liddell"
    assert body["role"] == "member"
    assert body["is_active"] is True
    assert body["timezone"] == "UTC"


def test_create_user_never_returns_the_password(make_user: UserFactory) -> None:
    user = make_user()
    assert "password" not in user
    assert "hashed_password" not in user


def test_create_user_lowercases_email(make_user: UserFactory) -> None:
    tag = _tag()
    user = make_user(email=f"Grace.Hopper.{tag}@Example.COM")
    assert user["email"] == f"grace.hopper.{tag}@example.com"


def test_create_user_strips_whitespace_from_name(make_user: UserFactory) -> None:
    user = make_user(full_name="   Edsger Dijkstra  ")
    assert user["full_name"] == "Edsger Dijkstra"


def test_create_user_with_role_and_timezone(make_user: UserFactory) -> None:
    user = make_user(role="admin", timezone="Europe/Amsterdam", bio="Shortest paths.")
    assert user["role"] == "admin"
    assert user["timezone"] == "Europe/Amsterdam"
    assert user["bio"] == "Shortest paths."


@pytest.mark.parametrize(
    "timezone",
    ["UTC", "Europe/London", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "Asia/Kolkata"],
)
def test_create_user_accepts_timezone_names(make_user: UserFactory, timezone: str) -> None:
    assert make_user(timezone=timezone)["timezone"] == timezone


@pytest.mark.parametrize("role", ["member", "admin", "viewer"])
def test_create_user_accepts_every_role(make_user: UserFactory, role: str) -> None:
    assert make_user(role=role)["role"] == role


def test_create_user_ignores_surrounding_whitespace_in_email(make_user: UserFactory) -> None:
    tag = _tag()
    user = make_user(email=f"  spaced.{tag}@example.com  ")
    assert user["email"] == f"spaced.{tag}@example.com"


def test_create_user_returns_timestamps(make_user: UserFactory) -> None:
    user = make_user()
    assert user["created_at"]
    assert user["updated_at"]
    assert user["last_login_at"] is None


def test_create_user_ids_increase(make_user: UserFactory) -> None:
    first = make_user()
    second = make_user()
    assert second["id"] > first["id"]


def test_create_user_duplicate_email_returns_409(client: TestClient, make_user: UserFactory) -> None:
    existing = make_user()
    response = client.post(
        "/users",
        json={"email": existing["email"], "full_name": "Someone Else", "password": VALID_PASSWORD},
    )
    assert response.status_code == 409
    assert response.json() == {"detail": f"Email {existing['email']} is already registered"}


def test_create_user_duplicate_email_is_case_insensitive(
    client: TestClient, make_user: UserFactory
) -> None:
    existing = make_user()
    response = client.post(
        "/users",
        json={
            "email": existing["email"].upper(),
            "full_name": "Shouting Twin",
            "password": VALID_PASSWORD,
        },
    )
    assert response.status_code == 409


@pytest.mark.parametrize(
    ("payload", "bad_field"),
    [
        pytest.param({"full_name": "No Email", "password": VALID_PASSWORD}, "email", id="missing-email"),
        pytest.param(
            {"email": "not-an-email", "full_name": "Bad Email", "password": VALID_PASSWORD},
            "email",
            id="malformed-email",
        ),
        pytest.param({"email": "x@example.com", "password": VALID_PASSWORD}, "full_name", id="missing-name"),
        pytest.param(
            {"email": "x@example.com", "full_name": "   ", "password": VALID_PASSWORD},
            "full_name",
            id="blank-name",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Short Pw", "password": "abc123"},
            "password",
            id="short-password",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "No Digit", "password": "onlyletters-here"},
            "password",
            id="password-without-digit",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Bad Role", "password": VALID_PASSWORD, "role": "root"},
            "role",
            id="unknown-role",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Bad Tz", "password": VALID_PASSWORD, "timezone": "Mars/Base 1"},
            "timezone",
            id="bad-timezone",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Extra", "password": VALID_PASSWORD, "is_admin": True},
            "is_admin",
            id="unknown-field",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "No Password"},
            "password",
            id="missing-password",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Digits Only", "password": "12345678901"},
            "password",
            id="password-without-letter",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Huge Pw", "password": "a1" * 65},
            "password",
            id="password-too-long",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": 42, "password": VALID_PASSWORD},
            "full_name",
            id="name-not-a-string",
        ),
        pytest.param(
            {"email": ["x@example.com"], "full_name": "List Email", "password": VALID_PASSWORD},
            "email",
            id="email-not-a-string",
        ),
        pytest.param(
            {"email": "x@@example.com", "full_name": "Double At", "password": VALID_PASSWORD},
            "email",
            id="email-double-at",
        ),
        pytest.param(
            {"email": "x@example", "full_name": "No Tld", "password": VALID_PASSWORD},
            "email",
            id="email-without-tld",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Bio", "password": VALID_PASSWORD, "bio": "b" * 2001},
            "bio",
            id="bio-too-long",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Role Case", "password": VALID_PASSWORD, "role": "Admin"},
            "role",
            id="role-is-case-sensitive",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Null Role", "password": VALID_PASSWORD, "role": None},
            "role",
            id="null-role",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Tz Space", "password": VALID_PASSWORD, "timezone": "Europe/ London"},
            "timezone",
            id="timezone-with-space",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Active", "password": VALID_PASSWORD, "is_active": False},
            "is_active",
            id="is-active-not-settable",
        ),
        pytest.param(
            {"email": "x@example.com", "full_name": "Id", "password": VALID_PASSWORD, "id": 7},
            "id",
            id="id-not-settable",
        ),
    ],
)
def test_create_user_rejects_invalid_payloads(
    client: TestClient, payload: dict[str, Any], bad_field: str
) -> None:
    response = client.post("/users", json=payload)
    assert response.status_code == 422, response.text
    assert bad_field in _error_fields(response)


def test_create_user_accepts_maximum_length_name(make_user: UserFactory) -> None:
    user = make_user(full_name="N" * 200)
    assert len(user["full_name"]) == 200


def test_create_user_rejects_name_over_200_characters(client: TestClient) -> None:
    response = client.post(
        "/users",
        json={"email": "long@example.com", "full_name": "N" * 201, "password": VALID_PASSWORD},
    )
    assert response.status_code == 422
    assert _error_fields(response) == {"full_name"}


def test_create_user_reports_every_invalid_field_at_once(client: TestClient) -> None:
    response = client.post("/users", json={"email": "nope", "full_name": "", "password": "x"})
    assert response.status_code == 422
    assert _error_fields(response) == {"email", "full_name", "password"}


def test_create_user_rejects_non_json_body(client: TestClient) -> None:
    response = client.post(
        "/users", content="email=a@example.com", headers={"Content-Type": "text/plain"}
    )
    assert response.status_code == 422


def test_create_user_rejects_password_equal_to_email_name(client: TestClient) -> None:
    response = client.post(
        "/users",
        json={"email": "password123@example.com", "full_name": "Lazy", "password": "password123"},
    )
    assert response.status_code == 422
    assert "must not be the same as the email" in response.text


# --------------------------------------------------------------------------- read


def test_get_user(client: TestClient, make_user: UserFactory) -> None:
    created = make_user(full_name="Barbara Liskov")
    response = client.get(f"/users/{created['id']}")
    assert response.status_code == 200
    assert response.json() == created


def test_get_user_returns_the_same_body_as_create(client: TestClient, make_user: UserFactory) -> None:
    created = make_user(bio="Turing Award 2008", timezone="America/New_York")
    fetched = client.get(f"/users/{created['id']}").json()
    assert fetched["bio"] == "Turing Award 2008"
    assert fetched["timezone"] == "America/New_York"
    assert fetched["created_at"] == created["created_at"]


@pytest.mark.parametrize("user_id", [0, -1, 2**31])
def test_get_user_out_of_range_ids_return_404(client: TestClient, user_id: int) -> None:
    response = client.get(f"/users/{user_id}")
    assert response.status_code == 404


def test_get_user_not_found(client: TestClient) -> None:
    response = client.get("/users/999999")
    assert response.status_code == 404
    assert response.json() == {"detail": "User 999999 not found"}


def test_get_user_with_non_integer_id_returns_422(client: TestClient) -> None:
    response = client.get("/users/abc")
    assert response.status_code == 422


def test_lookup_user_by_email_ignores_case(client: TestClient, make_user: UserFactory) -> None:
    created = make_user(email=f"margaret.hamilton.{_tag()}@example.com")
    response = client.get("/users/lookup", params={"email": created["email"].upper()})
    assert response.status_code == 200
    assert response.json()["id"] == created["id"]


def test_lookup_user_unknown_email_returns_404(client: TestClient) -> None:
    response = client.get("/users/lookup", params={"email": "nobody-here@example.com"})
    assert response.status_code == 404
    assert response.json() == {"detail": "No user with email nobody-here@example.com"}


@pytest.mark.parametrize("email", ["ab", "x" * 321])
def test_lookup_rejects_email_of_invalid_length(client: TestClient, email: str) -> None:
    response = client.get("/users/lookup", params={"email": email})
    assert response.status_code == 422


def test_lookup_is_not_shadowed_by_the_id_route(client: TestClient) -> None:
    # "/users/lookup" must not be parsed as "/users/{user_id}" with user_id="lookup".
    response = client.get("/users/lookup", params={"email": "nobody-at-all@example.com"})
    assert response.status_code == 404
    assert "No user with email" in response.json()["detail"]


def test_lookup_requires_email_parameter(client: TestClient) -> None:
    response = client.get("/users/lookup")
    assert response.status_code == 422


def test_user_stats_counts_new_users(client: TestClient, make_user: UserFactory) -> None:
    before = client.get("/users/stats").json()
    make_user(role="viewer")
    deactivated = make_user(role="admin")
    client.post(f"/users/{deactivated['id']}/deactivate")

    after = client.get("/users/stats").json()
    assert after["total"] == before["total"] + 2
    assert after["active"] == before["active"] + 1
    assert after["inactive"] == before["inactive"] + 1
    assert after["by_role"]["viewer"] == before["by_role"]["viewer"] + 1
    assert after["by_role"]["admin"] == before["by_role"]["admin"] + 1


def test_user_stats_is_not_shadowed_by_the_id_route(client: TestClient) -> None:
    response = client.get("/users/stats")
    assert response.status_code == 200
    assert set(response.json()) == {"total", "active", "inactive", "by_role"}


def test_user_stats_counts_reactivation(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    client.post(f"/users/{user['id']}/deactivate")
    before = client.get("/users/stats").json()
    client.post(f"/users/{user['id']}/activate")
    after = client.get("/users/stats").json()
    assert after["active"] == before["active"] + 1
    assert after["inactive"] == before["inactive"] - 1
    assert after["total"] == before["total"]


def test_user_stats_lists_every_role(client: TestClient) -> None:
    body = client.get("/users/stats").json()
    assert set(body["by_role"]) == {"member", "admin", "viewer"}
    assert body["active"] + body["inactive"] == body["total"]


# --------------------------------------------------------------------------- export


def _csv_rows(response: Any) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(response.text)))


def test_export_users_as_csv(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    first = make_user(full_name=f"Export {tag} A", role="admin")
    second = make_user(full_name=f"Export {tag} B")
    response = client.get("/users/export.csv", params={"search": tag})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert 'filename="users.csv"' in response.headers["content-disposition"]
    rows = _csv_rows(response)
    assert [row["id"] for row in rows] == [str(first["id"]), str(second["id"])]
    assert rows[0]["role"] == "admin"
    assert rows[1]["is_active"] == "true"


def test_export_csv_has_a_header_even_when_empty(client: TestClient) -> None:
    response = client.get("/users/export.csv", params={"search": "zz-nobody-zz"})
    assert response.status_code == 200
    assert response.text.strip() == "id,email,full_name,role,is_active,timezone,created_at"


def test_export_csv_never_contains_password_hashes(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    make_user(full_name=f"Secret {tag}")
    response = client.get("/users/export.csv", params={"search": tag})
    assert "pbkdf2" not in response.text
    assert "password" not in response.text


def test_export_csv_quotes_names_with_commas(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    make_user(full_name=f"Hopper, Grace {tag}")
    rows = _csv_rows(client.get("/users/export.csv", params={"search": tag}))
    assert rows[0]["full_name"] == f"Hopper, Grace {tag}"


def test_export_csv_filters_by_active(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    make_user(full_name=f"Exp Active {tag}")
    inactive = make_user(full_name=f"Exp Inactive {tag}")
    client.post(f"/users/{inactive['id']}/deactivate")
    rows = _csv_rows(client.get("/users/export.csv", params={"search": tag, "is_active": "false"}))
    assert [row["id"] for row in rows] == [str(inactive["id"])]


# --------------------------------------------------------------------------- list


def test_list_users_returns_a_page(client: TestClient, make_user: UserFactory) -> None:
    make_user()
    response = client.get("/users")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"items", "total", "page", "page_size", "pages"}
    assert body["page"] == 1
    assert body["page_size"] == 20
    assert body["total"] >= 1


def test_list_users_paginates(client: TestClient, make_user: UserFactory) -> None:
    for index in range(25):
        make_user(full_name=f"Pager {index:02d}")

    first = client.get("/users", params={"search": "Pager", "page_size": 10, "sort": "full_name"}).json()
    assert first["total"] == 25
    assert first["pages"] == 3
    assert [user["full_name"] for user in first["items"]] == [f"Pager {i:02d}" for i in range(10)]

    last = client.get(
        "/users", params={"search": "Pager", "page_size": 10, "page": 3, "sort": "full_name"}
    ).json()
    assert [user["full_name"] for user in last["items"]] == [f"Pager {i:02d}" for i in range(20, 25)]


@pytest.mark.parametrize(
    ("total", "page_size", "expected_pages"),
    [
        pytest.param(1, 10, 1, id="one-user"),
        pytest.param(10, 10, 1, id="exactly-one-page"),
        pytest.param(11, 10, 2, id="one-over"),
        pytest.param(7, 3, 3, id="partial-last-page"),
        pytest.param(6, 1, 6, id="one-per-page"),
    ],
)
def test_list_users_page_count(
    client: TestClient, make_user: UserFactory, total: int, page_size: int, expected_pages: int
) -> None:
    tag = _tag()
    for index in range(total):
        make_user(full_name=f"Count {tag} {index:02d}")
    body = client.get("/users", params={"search": tag, "page_size": page_size}).json()
    assert body["total"] == total
    assert body["pages"] == expected_pages
    assert len(body["items"]) == min(total, page_size)


def test_list_users_pages_do_not_overlap(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    for index in range(9):
        make_user(full_name=f"Overlap {tag} {index}")
    seen: list[int] = []
    for page in (1, 2, 3):
        body = client.get(
            "/users", params={"search": tag, "page_size": 4, "page": page, "sort": "full_name"}
        ).json()
        seen.extend(user["id"] for user in body["items"])
    assert len(seen) == len(set(seen)) == 9


def test_list_users_page_past_the_end_is_empty(client: TestClient, make_user: UserFactory) -> None:
    make_user()
    body = client.get("/users", params={"page": 500}).json()
    assert body["items"] == []
    assert body["page"] == 500


def test_list_users_rejects_page_size_over_the_maximum(client: TestClient) -> None:
    response = client.get("/users", params={"page_size": 1000})
    assert response.status_code == 422


def test_list_users_filters_by_active(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    active = make_user(full_name=f"Active {tag}")
    inactive = make_user(full_name=f"Inactive {tag}")
    client.post(f"/users/{inactive['id']}/deactivate")

    body = client.get("/users", params={"search": tag, "is_active": "false"}).json()
    ids = {user["id"] for user in body["items"]}
    assert inactive["id"] in ids
    assert active["id"] not in ids


def test_list_users_filters_by_role(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    viewer = make_user(full_name=f"Viewer {tag}", role="viewer")
    make_user(full_name=f"Member {tag}")

    body = client.get("/users", params={"search": tag, "role": "viewer"}).json()
    assert [user["id"] for user in body["items"]] == [viewer["id"]]


def test_list_users_search_matches_email(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    target = make_user(email=f"katherine.johnson.{tag}@example.org", full_name="K. Johnson")
    body = client.get("/users", params={"search": f"johnson.{tag}"}).json()
    assert [user["id"] for user in body["items"]] == [target["id"]]


def test_list_users_sorted_newest_first_by_default(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    older = make_user(full_name=f"Older {tag}")
    newer = make_user(full_name=f"Newer {tag}")
    body = client.get("/users", params={"search": tag}).json()
    assert [user["id"] for user in body["items"]] == [newer["id"], older["id"]]


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        pytest.param("email", ["a", "b", "c"], id="email-ascending"),
        pytest.param("-email", ["c", "b", "a"], id="email-descending"),
        pytest.param("full_name", ["b", "c", "a"], id="name-ascending"),
        pytest.param("-full_name", ["a", "c", "b"], id="name-descending"),
    ],
)
def test_list_users_sort_orders(
    client: TestClient, make_user: UserFactory, sort: str, expected: list[str]
) -> None:
    tag = _tag()
    make_user(email=f"a-{tag}@example.com", full_name=f"Zed {tag}")
    make_user(email=f"b-{tag}@example.com", full_name=f"Abe {tag}")
    make_user(email=f"c-{tag}@example.com", full_name=f"Max {tag}")
    body = client.get("/users", params={"search": tag, "sort": sort}).json()
    assert [user["email"][0] for user in body["items"]] == expected


def test_list_users_combines_filters(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    wanted = make_user(full_name=f"Admin Active {tag}", role="admin")
    inactive_admin = make_user(full_name=f"Admin Inactive {tag}", role="admin")
    make_user(full_name=f"Member Active {tag}")
    client.post(f"/users/{inactive_admin['id']}/deactivate")

    body = client.get("/users", params={"search": tag, "role": "admin", "is_active": "true"}).json()
    assert [user["id"] for user in body["items"]] == [wanted["id"]]
    assert body["total"] == 1


def test_list_users_search_without_matches(client: TestClient) -> None:
    body = client.get("/users", params={"search": "zz-no-such-user-zz"}).json()
    assert body == {"items": [], "total": 0, "page": 1, "page_size": 20, "pages": 0}


def test_list_users_rejects_empty_search(client: TestClient) -> None:
    response = client.get("/users", params={"search": ""})
    assert response.status_code == 422


def test_list_users_rejects_page_zero(client: TestClient) -> None:
    response = client.get("/users", params={"page": 0})
    assert response.status_code == 422


@pytest.mark.parametrize(
    ("params", "bad_parameter"),
    [
        pytest.param({"page": -1}, "page", id="negative-page"),
        pytest.param({"page": "first"}, "page", id="page-not-a-number"),
        pytest.param({"page_size": 0}, "page_size", id="zero-page-size"),
        pytest.param({"page_size": 101}, "page_size", id="page-size-just-over-limit"),
        pytest.param({"is_active": "maybe"}, "is_active", id="is-active-not-a-boolean"),
        pytest.param({"role": "owner"}, "role", id="unknown-role-filter"),
        pytest.param({"search": "x" * 101}, "search", id="search-too-long"),
        pytest.param({"sort": "created"}, "sort", id="sort-typo"),
        pytest.param({"sort": "--email"}, "sort", id="sort-double-minus"),
    ],
)
def test_list_users_rejects_invalid_query_parameters(
    client: TestClient, params: dict[str, Any], bad_parameter: str
) -> None:
    response = client.get("/users", params=params)
    assert response.status_code == 422, response.text
    assert bad_parameter in _error_fields(response)


@pytest.mark.parametrize("is_active", ["true", "1", "yes", "on"])
def test_list_users_accepts_boolean_spellings(client: TestClient, is_active: str) -> None:
    response = client.get("/users", params={"is_active": is_active})
    assert response.status_code == 200


def test_list_users_page_size_at_the_maximum_is_allowed(client: TestClient) -> None:
    response = client.get("/users", params={"page_size": 100})
    assert response.status_code == 200
    assert response.json()["page_size"] == 100


def test_list_users_items_have_the_public_fields_only(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    make_user(full_name=f"Fields {tag}")
    item = client.get("/users", params={"search": tag}).json()["items"][0]
    assert set(item) == {
        "id",
        "email",
        "full_name",
        "role",
        "is_active",
        "bio",
        "timezone",
        "created_at",
        "updated_at",
        "last_login_at",
    }


def test_list_users_search_is_case_insensitive(client: TestClient, make_user: UserFactory) -> None:
    tag = _tag()
    created = make_user(full_name=f"Casey {tag}")
    body = client.get("/users", params={"search": f"CASEY {tag.upper()}"}).json()
    assert [user["id"] for user in body["items"]] == [created["id"]]


def test_list_users_rejects_unknown_sort(client: TestClient) -> None:
    response = client.get("/users", params={"sort": "password"})
    assert response.status_code == 422


# --------------------------------------------------------------------------- update


def test_update_user_changes_only_given_fields(client: TestClient, make_user: UserFactory) -> None:
    user = make_user(full_name="Before Update", bio="unchanged")
    response = client.patch(f"/users/{user['id']}", json={"full_name": "After Update"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["full_name"] == "After Update"
    assert body["bio"] == "unchanged"
    assert body["email"] == user["email"]


def test_update_user_can_clear_bio(client: TestClient, make_user: UserFactory) -> None:
    user = make_user(bio="temporary")
    response = client.patch(f"/users/{user['id']}", json={"bio": None})
    assert response.status_code == 200
    assert response.json()["bio"] is None


def test_update_user_rejects_null_for_required_field(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    response = client.patch(f"/users/{user['id']}", json={"full_name": None})
    assert response.status_code == 422


def test_update_user_email_conflict_returns_409(client: TestClient, make_user: UserFactory) -> None:
    first = make_user()
    second = make_user()
    response = client.patch(f"/users/{second['id']}", json={"email": first["email"]})
    assert response.status_code == 409


def test_update_user_keeping_own_email_is_not_a_conflict(
    client: TestClient, make_user: UserFactory
) -> None:
    user = make_user()
    response = client.patch(f"/users/{user['id']}", json={"email": user["email"].upper()})
    assert response.status_code == 200


def test_update_user_password_is_not_echoed(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    response = client.patch(f"/users/{user['id']}", json={"password": "a-new-password-7"})
    assert response.status_code == 200
    assert "password" not in response.json()


def test_update_user_rejects_weak_password(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    response = client.patch(f"/users/{user['id']}", json={"password": "short1"})
    assert response.status_code == 422


def test_update_user_rejects_unknown_fields(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    response = client.patch(f"/users/{user['id']}", json={"is_active": False})
    assert response.status_code == 422


def test_update_user_role(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    response = client.patch(f"/users/{user['id']}", json={"role": "viewer"})
    assert response.status_code == 200
    assert response.json()["role"] == "viewer"


def test_update_user_rejects_unknown_role(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    response = client.patch(f"/users/{user['id']}", json={"role": "superuser"})
    assert response.status_code == 422
    assert _error_fields(response) == {"role"}


def test_update_user_timezone(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    response = client.patch(f"/users/{user['id']}", json={"timezone": "America/New_York"})
    assert response.status_code == 200
    assert response.json()["timezone"] == "America/New_York"


def test_update_user_normalises_new_email(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    tag = _tag()
    response = client.patch(f"/users/{user['id']}", json={"email": f"Renamed.{tag}@Example.com"})
    assert response.status_code == 200
    assert response.json()["email"] == f"renamed.{tag}@example.com"


def test_update_user_with_empty_body_changes_nothing(
    client: TestClient, make_user: UserFactory
) -> None:
    user = make_user(full_name="Stays The Same")
    response = client.patch(f"/users/{user['id']}", json={})
    assert response.status_code == 200
    body = response.json()
    assert body["full_name"] == "Stays The Same"
    assert body["email"] == user["email"]


@pytest.mark.parametrize(
    ("payload", "bad_field"),
    [
        pytest.param({"email": "not-an-email"}, "email", id="malformed-email"),
        pytest.param({"email": None}, "", id="null-email"),
        pytest.param({"full_name": ""}, "full_name", id="empty-name"),
        pytest.param({"full_name": "N" * 201}, "full_name", id="name-too-long"),
        pytest.param({"timezone": "Nowhere/ At All"}, "timezone", id="bad-timezone"),
        pytest.param({"password": "onlyletters-here"}, "password", id="password-without-digit"),
        pytest.param({"password": None}, "", id="null-password"),
        pytest.param({"hashed_password": "x"}, "hashed_password", id="hash-not-settable"),
        pytest.param({"created_at": "2020-01-01T00:00:00"}, "created_at", id="created-at-not-settable"),
    ],
)
def test_update_user_rejects_invalid_payloads(
    client: TestClient, make_user: UserFactory, payload: dict[str, Any], bad_field: str
) -> None:
    user = make_user()
    response = client.patch(f"/users/{user['id']}", json=payload)
    assert response.status_code == 422, response.text
    # Model-level errors (explicit nulls) have no field in their location.
    assert bad_field in _error_fields(response)


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        pytest.param({"full_name": "  Padded Name  "}, {"full_name": "Padded Name"}, id="name-is-stripped"),
        pytest.param({"bio": "  spaced bio  "}, {"bio": "spaced bio"}, id="bio-is-stripped"),
        pytest.param({"role": "admin"}, {"role": "admin"}, id="promote-to-admin"),
        pytest.param({"timezone": "Etc/UTC"}, {"timezone": "Etc/UTC"}, id="etc-timezone"),
        pytest.param(
            {"full_name": "Both Fields", "timezone": "Asia/Tokyo"},
            {"full_name": "Both Fields", "timezone": "Asia/Tokyo"},
            id="two-fields-at-once",
        ),
        pytest.param({"bio": ""}, {"bio": ""}, id="empty-bio-is-kept"),
    ],
)
def test_update_user_accepts_valid_payloads(
    client: TestClient, make_user: UserFactory, payload: dict[str, Any], expected: dict[str, Any]
) -> None:
    user = make_user()
    response = client.patch(f"/users/{user['id']}", json=payload)
    assert response.status_code == 200, response.text
    body = response.json()
    for field, value in expected.items():
        assert body[field] == value
    untouched = set(user) - set(payload) - {"updated_at"}
    assert {field: body[field] for field in untouched} == {field: user[field] for field in untouched}


def test_update_is_visible_to_later_reads(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    client.patch(f"/users/{user['id']}", json={"full_name": "Persisted Name"})
    assert client.get(f"/users/{user['id']}").json()["full_name"] == "Persisted Name"
    lookup = client.get("/users/lookup", params={"email": user["email"]}).json()
    assert lookup["full_name"] == "Persisted Name"


def test_update_user_not_found(client: TestClient) -> None:
    response = client.patch("/users/999999", json={"full_name": "Nobody"})
    assert response.status_code == 404


def test_update_user_bumps_updated_at(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    response = client.patch(f"/users/{user['id']}", json={"bio": "changed"})
    body = response.json()
    assert _parse_timestamp(body["updated_at"]) >= _parse_timestamp(user["updated_at"])
    assert body["created_at"] == user["created_at"]


# --------------------------------------------------------------------------- activation


def test_deactivated_user_cannot_sign_in_but_keeps_data(
    client: TestClient, make_user: UserFactory
) -> None:
    user = make_user(bio="still here")
    body = client.post(f"/users/{user['id']}/deactivate").json()
    assert body["bio"] == "still here"
    assert body["email"] == user["email"]


def test_activate_already_active_user_is_a_no_op(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    response = client.post(f"/users/{user['id']}/activate")
    assert response.status_code == 200
    assert response.json()["updated_at"] == user["updated_at"]


def test_deactivate_user(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    response = client.post(f"/users/{user['id']}/deactivate")
    assert response.status_code == 200
    assert response.json()["is_active"] is False


def test_deactivate_is_idempotent(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    client.post(f"/users/{user['id']}/deactivate")
    response = client.post(f"/users/{user['id']}/deactivate")
    assert response.status_code == 200
    assert response.json()["is_active"] is False


def test_activate_user(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    client.post(f"/users/{user['id']}/deactivate")
    response = client.post(f"/users/{user['id']}/activate")
    assert response.status_code == 200
    assert response.json()["is_active"] is True


def test_deactivated_user_can_still_be_fetched(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    client.post(f"/users/{user['id']}/deactivate")
    response = client.get(f"/users/{user['id']}")
    assert response.status_code == 200
    assert response.json()["is_active"] is False


def test_deactivate_unknown_user_returns_404(client: TestClient) -> None:
    response = client.post("/users/999999/deactivate")
    assert response.status_code == 404


# --------------------------------------------------------------------------- delete


def test_delete_user(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    response = client.delete(f"/users/{user['id']}")
    assert response.status_code == 204
    assert response.content == b""
    assert client.get(f"/users/{user['id']}").status_code == 404


def test_delete_user_twice_returns_404(client: TestClient, make_user: UserFactory) -> None:
    user = make_user()
    assert client.delete(f"/users/{user['id']}").status_code == 204
    second = client.delete(f"/users/{user['id']}")
    assert second.status_code == 404
    assert second.json() == {"detail": f"User {user['id']} not found"}


def test_delete_user_not_found(client: TestClient) -> None:
    response = client.delete("/users/999999")
    assert response.status_code == 404


def test_delete_user_with_non_integer_id_returns_422(client: TestClient) -> None:
    response = client.delete("/users/abc")
    assert response.status_code == 422


def test_delete_route_is_documented_with_its_statuses(client: TestClient) -> None:
    responses = client.get("/openapi.json").json()["paths"]["/users/{user_id}"]["delete"]["responses"]
    assert "404" in responses
    assert "422" in responses


# --------------------------------------------------------------------------- timestamps


def test_timestamps_are_iso_8601(make_user: UserFactory) -> None:
    user = make_user()
    for field in ("created_at", "updated_at"):
        parsed = _parse_timestamp(user[field])
        assert parsed.year >= 2024
        assert user[field].startswith(parsed.date().isoformat())


def test_newer_users_have_later_created_at(make_user: UserFactory) -> None:
    first = make_user()
    second = make_user()
    assert _parse_timestamp(second["created_at"]) >= _parse_timestamp(first["created_at"])


def test_deactivation_bumps_updated_at_but_not_created_at(
    client: TestClient, make_user: UserFactory
) -> None:
    user = make_user()
    body = client.post(f"/users/{user['id']}/deactivate").json()
    assert body["created_at"] == user["created_at"]
    assert _parse_timestamp(body["updated_at"]) >= _parse_timestamp(user["updated_at"])


def test_created_and_updated_timestamps_are_set(make_user: UserFactory) -> None:
    user = make_user()
    created = _parse_timestamp(user["created_at"])
    updated = _parse_timestamp(user["updated_at"])
    assert updated >= created
    assert (datetime.now() - created.replace(tzinfo=None)).total_seconds() < 3600 * 24
`;
