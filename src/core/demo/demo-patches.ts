// The two edits the agent makes to fix DELETE /users/{id}. Kept apart from the files so the
// transcript can show the patch arguments, the resulting diffs and the files after the fix.

export const crudDeleteBefore = `def delete_user(db: Session, user: models.User) -> models.User:
    """Delete user and return it so the endpoint can echo the deleted record."""
    db.delete(user)
    db.commit()
    db.refresh(user)
    logger.info("Deleted user %s", user.id)
    return user
`;

export const crudDeleteAfter = `def delete_user(db: Session, user: models.User) -> None:
    """Delete user for good.

    Nothing is returned: once the delete is committed the instance is detached
    and its row is gone, so refresh() (or lazy-loading any expired attribute)
    would raise. Read what you need from the instance before calling this.
    """
    user_id = user.id
    db.delete(user)
    db.commit()
    logger.info("Deleted user %s", user_id)
`;

export const mainDeleteBefore = `@app.delete(
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

export const mainDeleteAfter = `@app.delete(
    "/users/{user_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=NOT_FOUND_RESPONSE,
    tags=["users"],
)
def delete_user(user_id: int, db: DbSession) -> Response:
    """Delete a user for good. Responds 204 with an empty body."""
    crud.delete_user(db, _get_user_or_404(db, user_id))
    return Response(status_code=status.HTTP_204_NO_CONTENT)
`;

/** The import line of app/main.py, which gains Response for the 204. */
export const mainImportBefore = 'from fastapi import Depends, FastAPI, HTTPException, Query, status\n';
export const mainImportAfter =
  'from fastapi import Depends, FastAPI, HTTPException, Query, Response, status\n';
